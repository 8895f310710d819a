/** Where the app pages live (routes of ours; the spec names none). */
export const APP_LIST_PATH = '/newbi/app';
export const APP_EDIT_PATH = '/newbi/app/edit';
export const MOBILE_HOME_PATH = '/m';
export const FRAME_PATH = '/bigscreen';
export const appEditPath = (id?: number) => (id ? `${APP_EDIT_PATH}?id=${id}` : APP_EDIT_PATH);
export const mobileAppPath = (id: number) => `/m/app/${id}`;
