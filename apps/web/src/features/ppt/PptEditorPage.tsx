/** Placeholder until the slideshow editor lands (/newbi/ppt/edit?id=). */
export default function PptEditorPage() {
  return null;
}
