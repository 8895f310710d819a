import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { App, Button, Card, Checkbox, DatePicker, Empty, Form, Input, Select, Space, Spin, Statistic } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { TagAudienceSave, TagAudienceView, TagRuleDetail, TagRules } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { ApiError } from '../../shared/api.ts';
import { notifyError, notifySuccess, notifyWarning } from '../../shared/notify.ts';
import { fetchImportGroups, fetchTagAudience, fetchTags, fetchTree, previewAudience, saveTagAudience, tagKeys } from './api.ts';
import { initialRules, lastMonth, libraryEntries, newRule, ruleKey, tagsOf } from './editor-model.ts';
import { EditorLibrary } from './EditorLibrary.tsx';
import { tg } from './messages.ts';
import { PROFILE_COMPARE_PATH, TAG_AUDIENCE_PATH } from './paths.ts';
import { RuleCard } from './RuleCard.tsx';
import './tag.css';

const MONTH = 'YYYY-MM';
type Range = [string, string];
const rangeValue = (r: Range) => [dayjs(r[0], MONTH), dayjs(r[1], MONTH)] as [dayjs.Dayjs, dayjs.Dayjs];

/**
 * 标签人群 (spec 3 §2 "Audience editor (tag-driven)"): ?id= opens a saved audience in update mode; 人群不存在 when it is not there.
 * The editor that saves a new audience stays mounted as the address gains its ?id=: no spinner, and the
 * library tab and scroll the user left stay where they were.
 */
export function TagAudiencePage() {
  const [search] = useSearchParams();
  const location = useLocation();
  const id = Number(search.get('id')) || null;
  const [created, setCreated] = useState<{ id: number; editorKey: string } | null>(null);
  const fresh = created !== null && id === created.id;
  const saved = useQuery({
    queryKey: tagKeys.audience(id ?? 0),
    queryFn: () => fetchTagAudience(id!),
    enabled: id !== null && !fresh,
    retry: false,
  });
  useEffect(() => {
    if (saved.error) notifyWarning(saved.error instanceof ApiError && saved.error.status === 404 ? tg.groupNotFound : saved.error.message);
  }, [saved.error]);
  if (id !== null && !fresh && saved.isPending) return <Spin />;
  const editorKey = fresh ? created.editorKey : saved.data && id !== null ? `${saved.data.id}:${saved.dataUpdatedAt}` : `new:${location.key}`;
  return (
    <TagAudienceEditor
      key={editorKey}
      id={fresh ? id : (saved.data?.id ?? null)}
      saved={fresh ? null : (saved.data ?? null)}
      onCreated={(newId) => setCreated({ id: newId, editorKey })}
      onSaved={() => (fresh ? undefined : void saved.refetch())}
    />
  );
}

/** The three areas: tag library, rule area, audience information; add, or update with confirmation. */
function TagAudienceEditor({
  id,
  saved,
  onCreated,
  onSaved,
}: {
  id: number | null;
  saved: TagAudienceView | null;
  onCreated: (id: number) => void;
  onSaved: () => void;
}) {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [rules, setRules] = useState<TagRuleDetail[]>(() => saved?.rules.ruledetails ?? initialRules());
  const [relationship, setRelationship] = useState<'and' | 'or'>(saved?.rules.relationship ?? 'and');
  const [daterange, setDaterange] = useState<Range>(saved?.rules.daterange ?? [lastMonth(), lastMonth()]);
  const [analyse, setAnalyse] = useState<Range>(saved ? [saved.startAnalyseDate, saved.endAnalyseDate] : [lastMonth(), lastMonth()]);
  const [groupName, setGroupName] = useState(saved?.groupName ?? '');
  const [groupUse, setGroupUse] = useState<0 | 1>(saved?.groupUse ?? 0);
  const [importId, setImportId] = useState<number | null>(saved?.importId ?? null);
  const [schedule, setSchedule] = useState({
    requestFreq: (saved?.requestFreq ?? 0) as 0 | 1 | 2 | 3,
    isOnline: (saved?.isOnline ?? 1) as 1 | 2,
    defaultShow: saved?.defaultShow ?? false,
  });
  const [size, setSize] = useState<number | null>(saved?.size ?? null);
  const [busy, setBusy] = useState(false);
  const tags = useQuery({ queryKey: tagKeys.list(''), queryFn: () => fetchTags() });
  const product = useQuery({ queryKey: tagKeys.tree('product'), queryFn: () => fetchTree('product') });
  const channel = useQuery({ queryKey: tagKeys.tree('linkup_channel'), queryFn: () => fetchTree('linkup_channel') });
  const area = useQuery({ queryKey: tagKeys.tree('linkup_area'), queryFn: () => fetchTree('linkup_area') });
  const imports = useQuery({ queryKey: ['audience', 'list', 'import'], queryFn: fetchImportGroups });
  const entries = useMemo(() => libraryEntries(tags.data ?? []), [tags.data]);
  const selected = new Set(rules.map(ruleKey));

  const current = (): TagRules => ({ relationship, daterange, ruledetails: rules });
  const body = (): TagAudienceSave => ({
    ...(id ? { id } : {}),
    groupName: groupName.trim(),
    groupUse,
    importId,
    ...schedule,
    rules: current(),
    startAnalyseDate: analyse[0],
    endAnalyseDate: analyse[1],
  });
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };
  const preview = () => run(async () => setSize((await previewAudience(current(), importId)).size));
  const save = async () => {
    if (!groupName.trim()) return notifyWarning(tg.groupNameRequired);
    const write = () =>
      run(async () => {
        const answer = await saveTagAudience(body());
        setSize(answer.size);
        notifySuccess(id ? tg.updated : tg.saved);
        if (!id) {
          onCreated(answer.id);
          void navigate(`${TAG_AUDIENCE_PATH}?id=${answer.id}`, { replace: true });
        } else onSaved();
      });
    if (id) modal.confirm({ title: tg.updateConfirm, onOk: write });
    else await write();
  };

  const setRule = (i: number, rule: TagRuleDetail) => setRules(rules.map((r, j) => (j === i ? rule : r)));
  return (
    <PageContainer title={tg.pageAudience} description={tg.pageAudienceDesc}>
      <div className="tag-editor" data-testid="tag-editor">
        <EditorLibrary entries={entries} selected={selected} onAdd={(e) => setRules([...rules, newRule(e)])} />
        <Card size="small" title={tg.ruleArea} extra={<Button onClick={() => setRules([])}>{tg.clear}</Button>}>
          <div className="tag-rule-head">
            <Button title={tg.relationTip} onClick={() => setRelationship(relationship === 'and' ? 'or' : 'and')} data-testid="tag-relation">
              {tg.relation[relationship]}
            </Button>
            <span>{tg.daterange}</span>
            <DatePicker.RangePicker
              picker="month"
              format={MONTH}
              allowClear={false}
              value={rangeValue(daterange)}
              onChange={(v) => v?.[0] && v[1] && setDaterange([v[0].format(MONTH), v[1].format(MONTH)])}
              data-testid="tag-daterange"
            />
          </div>
          {rules.length === 0 && <Empty description={tg.rulesRequired} />}
          {rules.map((rule, i) => (
            <RuleCard
              key={ruleKey(rule)}
              rule={rule}
              tags={tagsOf(entries, rule)}
              trees={{ product: product.data, channel: channel.data, area: area.data }}
              onChange={(r) => setRule(i, r)}
              onRemove={() => setRules(rules.filter((_, j) => j !== i))}
            />
          ))}
        </Card>
        <Card size="small" title={tg.info}>
          <Form layout="vertical">
            <Form.Item label={tg.groupName} required>
              <Input value={groupName} maxLength={50} onChange={(e) => setGroupName(e.target.value)} data-testid="tag-group-name" />
            </Form.Item>
            <Form.Item label={tg.groupUse}>
              <Select value={groupUse} onChange={setGroupUse} options={[0, 1].map((v) => ({ value: v, label: tg.groupUses[v as 0 | 1] }))} />
            </Form.Item>
            <Form.Item label={tg.importGroup} extra={tg.importTip}>
              <Select
                allowClear
                value={importId ?? undefined}
                placeholder={tg.importNone}
                onChange={(v?: number) => setImportId(v ?? null)}
                options={(imports.data ?? []).map((a) => ({ value: a.id, label: a.groupName }))}
                data-testid="tag-import"
              />
            </Form.Item>
            <Form.Item label={tg.requestFreq} extra={tg.requestFreqTip}>
              <Select
                value={schedule.requestFreq}
                onChange={(requestFreq) => setSchedule({ ...schedule, requestFreq })}
                options={([0, 1, 2, 3] as const).map((v) => ({ value: v, label: tg.requestFreqs[v] }))}
                data-testid="tag-request-freq"
              />
            </Form.Item>
            <Space size="large">
              <Checkbox checked={schedule.isOnline === 1} onChange={(e) => setSchedule({ ...schedule, isOnline: e.target.checked ? 1 : 2 })}>
                {tg.isOnline}
              </Checkbox>
              <Checkbox
                checked={schedule.defaultShow}
                onChange={(e) => setSchedule({ ...schedule, defaultShow: e.target.checked })}
                data-testid="tag-default-show"
              >
                {tg.defaultShow}
              </Checkbox>
            </Space>
            <Form.Item label={tg.analyse} extra={tg.analyseTip}>
              <DatePicker.RangePicker
                picker="month"
                format={MONTH}
                allowClear={false}
                value={rangeValue(analyse)}
                onChange={(v) => v?.[0] && v[1] && setAnalyse([v[0].format(MONTH), v[1].format(MONTH)])}
              />
            </Form.Item>
          </Form>
          {size !== null && <Statistic title={tg.size} value={size} suffix="人" data-testid="tag-size" />}
          <Space wrap style={{ marginTop: 12 }}>
            <Button onClick={preview} loading={busy} data-testid="tag-preview">
              {tg.preview}
            </Button>
            <Button type="primary" onClick={() => void save()} loading={busy} data-testid="tag-save">
              {id ? tg.saveUpdate : tg.saveAdd}
            </Button>
            {id && <Button onClick={() => void navigate(`${PROFILE_COMPARE_PATH}?type=tag&id=${id}`)}>{tg.compare}</Button>}
          </Space>
        </Card>
      </div>
    </PageContainer>
  );
}

export default TagAudiencePage;
