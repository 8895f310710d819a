/** Placeholder until the slideshow viewer lands (/newbi/ppt/view/:ppid/:id, /fullpowerpoint/:ppid/:id). */
export default function PptViewerPage({ full }: { full: boolean }) {
  return <div>{full ? 'full' : 'normal'}</div>;
}
