import { useCallback, useState } from 'react';
import { Card, Col, Empty, Row, Tag } from 'antd';
import type { Dict } from '@shutu/contracts';
import { t } from '../../shared/messages.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { dictKeys, fetchDictChildren, fetchDictParents } from './api.ts';
import { DictFormModal, type DictEditTarget } from './DictFormModal.tsx';
import { DictTable } from './DictTable.tsx';

const sameDict = (a: Dict, b: Dict) =>
  a.id === b.id && a.code === b.code && a.dictValue === b.dictValue && a.dictKey === b.dictKey && a.isSealed === b.isSealed;

/** Spec 2 §2 "Dictionary manager": parents on the left, the clicked parent's entries on the right. */
export function DictPage() {
  const [parent, setParent] = useState<Dict | null>(null);
  const [target, setTarget] = useState<DictEditTarget | null>(null);
  const keepParentFresh = useCallback((row: Dict) => setParent((p) => (p && sameDict(p, row) ? p : row)), []);

  return (
    <PageContainer title={t.pageDict} description={t.dictDesc}>
      <Row gutter={16} className="dict-layout">
        <Col xs={24} xl={12}>
          <Card title={t.dictParents} className="dict-card" styles={{ body: { padding: 16 } }}>
            <DictTable
              testId="dict-parents"
              searchPlaceholder={t.dictSearch}
              queryKey={(p) => dictKeys.parents(p)}
              fetch={fetchDictParents}
              addLabel={t.add}
              onAdd={() => setTarget({})}
              onEdit={(record) => setTarget({ record })}
              activeId={parent?.id}
              onRowClick={setParent}
              onActiveLoaded={keepParentFresh}
              onRemoved={(ids) => {
                if (parent && ids.includes(parent.id)) setParent(null);
              }}
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card
            className="dict-card"
            styles={{ body: { padding: 16 } }}
            title={
              parent ? (
                <span>
                  {t.dictChildren}
                  <Tag color="blue" className="dict-parent-tag">
                    {parent.dictValue}（{parent.code}）
                  </Tag>
                </span>
              ) : (
                t.dictChildren
              )
            }
          >
            {parent ? (
              <DictTable
                key={parent.id}
                testId="dict-children"
                searchPlaceholder={t.dictChildSearch}
                queryKey={(p) => dictKeys.children(parent.id, p)}
                fetch={(p) => fetchDictChildren(parent.id, p)}
                addLabel={t.add}
                onAdd={() => setTarget({ parent })}
                onEdit={(record) => setTarget({ record, parent })}
              />
            ) : (
              <Empty className="dict-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.dictPickParent} data-testid="dict-children-empty" />
            )}
          </Card>
        </Col>
      </Row>
      <DictFormModal target={target} onClose={() => setTarget(null)} />
    </PageContainer>
  );
}
