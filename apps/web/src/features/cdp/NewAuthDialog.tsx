import { useState } from 'react';
import { Button, Modal, Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { PLATFORM_DICT_KEY } from '@shutu/contracts';
import { notifyError } from '../../shared/notify.ts';
import { cdpKeys, fetchAuthLink, fetchPlatforms } from './api.ts';
import { cm } from './messages.ts';

/**
 * 新增授权 / 重新授权: the platform type is left in local storage for the join callback page
 * (spec 1 §2.11), then the browser goes to the link the platform type's access URL answers.
 */
export function NewAuthDialog({ open, platformId, onClose }: { open: boolean; platformId?: number; onClose: () => void }) {
  const platforms = useQuery({ queryKey: cdpKeys.platforms, queryFn: fetchPlatforms, enabled: open });
  const [chosen, setChosen] = useState<number | undefined>(platformId);
  const [busy, setBusy] = useState(false);
  const selected = chosen ?? platformId ?? platforms.data?.[0]?.id;
  const go = async () => {
    const platform = platforms.data?.find((p) => p.id === selected);
    if (!platform) return notifyError(new Error(cm.choosePlatform));
    setBusy(true);
    try {
      const link = await fetchAuthLink(platform);
      localStorage.setItem(PLATFORM_DICT_KEY, String(platform.id));
      window.location.assign(link);
    } catch (error) {
      notifyError(error);
      setBusy(false);
    }
  };
  return (
    <Modal title={cm.newAuthTitle} open={open} onCancel={onClose} footer={null} destroyOnHidden>
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{cm.choosePlatform}</Typography.Text>
        <Select
          aria-label={cm.platformType}
          style={{ width: '100%' }}
          loading={platforms.isLoading}
          value={selected}
          onChange={setChosen}
          options={(platforms.data ?? []).map((p) => ({ value: p.id, label: p.platformName }))}
        />
        <Space>
          <Button type="primary" loading={busy} onClick={() => void go()}>
            {cm.goAuthorise}
          </Button>
          <Button href="https://mp.weixin.qq.com/" target="_blank" rel="noreferrer">
            {cm.createAccount}
          </Button>
        </Space>
      </Space>
    </Modal>
  );
}
