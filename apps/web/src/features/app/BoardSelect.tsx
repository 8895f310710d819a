import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fetchBoards } from '../board/api.ts';
import { am } from './messages.ts';

/** Every dashboard and self-service report the editor may see, grouped by kind, searchable by title. */
export function BoardSelect({ value, onChange }: { value?: number | null; onChange?: (id: number | null) => void }) {
  const boards = useQuery({
    queryKey: ['app', 'board-options'],
    queryFn: async () => {
      const [visual, report] = await Promise.all([
        fetchBoards({ kind: 'visual', current: 1, size: 10000 }),
        fetchBoards({ kind: 'report', current: 1, size: 10000 }),
      ]);
      return { visual: visual.records, report: report.records };
    },
    staleTime: 30_000,
  });
  const options = [
    { label: am.kindVisual, options: (boards.data?.visual ?? []).map((b) => ({ value: b.id, label: b.title })) },
    { label: am.kindReport, options: (boards.data?.report ?? []).map((b) => ({ value: b.id, label: b.title })) },
  ];
  return (
    <div data-testid="menu-visual">
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        loading={boards.isLoading}
        placeholder={am.visualPlaceholder}
        value={value ?? undefined}
        onChange={(v: number | undefined) => onChange?.(v ?? null)}
        options={options}
      />
    </div>
  );
}
