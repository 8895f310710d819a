/** The public face of the system module: other modules import only what is exported here (the boundary check enforces it). */
export { loadNotifySettings } from './notify-settings.ts';
export { linkBaseUrl, publicBaseUrl } from './public-url.ts';
export { onTimeZoneChange, serverTimeZone, serverTimeZoneOffsetMinutes } from './time-zone.ts';
