import { Alert, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fetchDiagram } from './api.ts';
import { wk } from './messages.ts';

function toDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error(wk.diagramFailed));
    reader.readAsDataURL(blob);
  });
}

/** The process diagram (diagram-view), fetched again when the instance moves on (`version`: its history length). */
export function DiagramImage({ processInstanceId, version }: { processInstanceId: string; version: number }) {
  const diagram = useQuery({
    queryKey: ['workflow', 'diagram', processInstanceId, version],
    queryFn: async () => toDataUrl(await fetchDiagram(processInstanceId)),
    staleTime: Infinity,
  });
  if (diagram.isError) return <Alert type="warning" showIcon title={wk.diagramFailed} />;
  if (!diagram.data) return <Spin />;
  return <img className="work-diagram" src={diagram.data} alt={wk.diagramAlt} />;
}
