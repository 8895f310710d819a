/** Routes of the tag pages (not in the spec; ours). */
export const TAG_LIBRARY_PATH = '/cdp/tags';
export const TAG_DETAIL_PATH = '/cdp/tag/detail';
/** The tag-driven audience editor; ?id= of a saved one (spec 3 §2: the editor has an optional query id). */
export const TAG_AUDIENCE_PATH = '/cdp/tag/audience';
/** The user-profile comparison: ?type=&id=1,2,3 (spec 3 §2). */
export const PROFILE_COMPARE_PATH = '/cdp/profile/compare';
