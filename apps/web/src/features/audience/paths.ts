/** Routes of the audience pages (not in the spec; the editor's optional ?id= is, spec 3 §2). */
export const AUDIENCE_LIST_PATH = '/cdp/audience';
export const AUDIENCE_EDIT_PATH = '/cdp/audience/edit';
