/** Placeholder until the preview lands. */
export default function OpenViewPage() {
  return null;
}
