import { Card, Steps } from 'antd';
import { Link } from 'react-router';
import type { HomeGuide } from '@shutu/contracts';
import { editorPath as datasetEditorPath } from '../dataset/api.ts';
import { previewPath } from '../board/api.ts';
import { hm } from './messages.ts';

const DATASOURCE_PAGE = '/system/datasource';

/** The steps of the guided path the user may take: a step whose demo object is gone (or not theirs to open) is left out. */
export function guideSteps(guide: HomeGuide): { key: string; title: string; description: string; to: string }[] {
  const steps = [];
  if (guide.datasource) {
    steps.push({ key: 'datasource', title: hm.guideSource, description: hm.guideSourceDesc(guide.datasource.name), to: DATASOURCE_PAGE });
  }
  if (guide.dataset) {
    steps.push({
      key: 'dataset',
      title: hm.guideDataset,
      description: hm.guideDatasetDesc(guide.dataset.name),
      to: datasetEditorPath({ id: guide.dataset.id }),
    });
  }
  if (guide.board) steps.push({ key: 'board', title: hm.guideBoard, description: hm.guideBoardDesc(guide.board.title), to: previewPath(guide.board.id) });
  return steps;
}

/** 从示例开始: shown while the user has made no dataset or board of their own (the server decides). */
export function GuidePath({ guide }: { guide: HomeGuide }) {
  const steps = guideSteps(guide);
  if (steps.length === 0) return null;
  return (
    <Card size="small" className="home-section home-guide" title={hm.guideTitle} data-testid="home-guide">
      <div className="home-guide-desc">{hm.guideDesc}</div>
      <Steps
        current={-1}
        size="small"
        items={steps.map((s) => ({
          key: s.key,
          status: 'process',
          title: (
            <Link to={s.to} data-testid={`home-guide-${s.key}`}>
              {s.title}
            </Link>
          ),
          description: s.description,
        }))}
      />
    </Card>
  );
}
