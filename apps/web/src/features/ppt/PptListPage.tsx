/** Placeholder until the slideshow list lands (/newbi/ppt). */
export function PptListPage() {
  return null;
}
