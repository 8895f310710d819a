import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar, Button, Card, Col, Empty, Row, Tag } from 'antd';
import { PlusOutlined, WechatOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { cdpKeys, fetchAccounts } from './api.ts';
import { cm } from './messages.ts';
import { NewAuthDialog } from './NewAuthDialog.tsx';

/** 公众号: a card per authorised account (head image, nick name, signature) and the new-authorisation dialog. */
export function OfficialAccountsPage() {
  const accounts = useQuery({ queryKey: cdpKeys.accounts, queryFn: fetchAccounts });
  const [authOpen, setAuthOpen] = useState(false);
  const navigate = useNavigate();
  return (
    <PageContainer
      title={cm.pageAccounts}
      description={cm.pageAccountsDesc}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAuthOpen(true)}>
          {cm.newAuth}
        </Button>
      }
    >
      {accounts.data?.length === 0 && <Empty />}
      <Row gutter={[16, 16]}>
        {(accounts.data ?? []).map((a) => (
          <Col key={a.id} xs={24} sm={12} lg={8} xl={6}>
            <Card hoverable onClick={() => void navigate(`/cdp/join/info?id=${a.id}`)}>
              <Card.Meta
                avatar={<Avatar src={a.headImg} icon={<WechatOutlined />} size={48} />}
                title={a.nickName}
                description={
                  <>
                    <div style={{ minHeight: 22 }}>{a.signature}</div>
                    {a.status !== 1 && <Tag>{cm.notAuthorised}</Tag>}
                  </>
                }
              />
            </Card>
          </Col>
        ))}
      </Row>
      <NewAuthDialog open={authOpen} onClose={() => setAuthOpen(false)} />
    </PageContainer>
  );
}
