/** Placeholder until the editors land: screen mode (bigdataEdit) and quick mode (quickEdit). */
export default function BoardEditorPage({ mode }: { mode: 'screen' | 'quick' }) {
  return <div>{mode}</div>;
}
