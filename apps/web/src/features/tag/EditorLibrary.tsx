import { Button, Card, List, Tabs } from 'antd';
import { CheckOutlined, PlusOutlined } from '@ant-design/icons';
import type { TagGroupKey } from '@shutu/contracts';
import type { LibraryEntry } from './editor-model.ts';
import { tg } from './messages.ts';

/** The editor's tag library (spec 3 §2): groups product, network, algorithm; an added entry shows as selected. */
export function EditorLibrary({ entries, selected, onAdd }: { entries: LibraryEntry[]; selected: Set<string>; onAdd: (entry: LibraryEntry) => void }) {
  const items = (Object.keys(tg.groups) as TagGroupKey[]).map((group) => ({
    key: group,
    label: tg.groups[group],
    children: (
      <List
        size="small"
        dataSource={entries.filter((e) => e.group === group)}
        renderItem={(e) => {
          const on = selected.has(e.key);
          return (
            <List.Item
              actions={[
                <Button
                  key="add"
                  size="small"
                  type={on ? 'primary' : 'default'}
                  ghost={on}
                  icon={on ? <CheckOutlined /> : <PlusOutlined />}
                  disabled={on}
                  onClick={() => onAdd(e)}
                  data-testid={`tag-lib-${e.level2name}`}
                >
                  {on ? tg.added : tg.add}
                </Button>,
              ]}
            >
              {e.level2name}
            </List.Item>
          );
        }}
      />
    ),
  }));
  return (
    <Card size="small" title={tg.library} className="tag-editor-library">
      <Tabs size="small" items={items} />
    </Card>
  );
}
