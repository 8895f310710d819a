/** Placeholder until the preview lands. */
export default function BoardPreviewPage() {
  return null;
}
