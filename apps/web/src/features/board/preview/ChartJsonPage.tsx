/** Placeholder until the preview lands. */
export default function ChartJsonPage() {
  return null;
}
