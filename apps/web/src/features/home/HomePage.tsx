import { Button, Result, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { useUserInfo } from '../../shared/session.ts';
import { errorText } from '../../shared/notify.ts';
import { fetchHome, homeKeys } from './api.ts';
import { GuidePath } from './GuidePath.tsx';
import { ItemSection } from './ItemSection.tsx';
import { QuickActions } from './QuickActions.tsx';
import { hm } from './messages.ts';
import { HomeTodos } from '../workflow/index.ts';
import './home.css';

/**
 * 首页 (issue 16; docs/home.md): quick actions, the guided path on a new install, what the user
 * opened lately, their favourites and the boards shared with them. Always fetched afresh: a
 * board opened a moment ago must be under 最近访问 on coming back.
 */
export function HomePage() {
  const { data: user } = useUserInfo();
  const home = useQuery({ queryKey: homeKeys.home, queryFn: fetchHome, staleTime: 0, refetchOnMount: 'always' });
  // The name the header shows.
  const name = user?.name ?? '';

  return (
    <PageContainer title={hm.greeting(name)} description={hm.desc} extra={<QuickActions />}>
      {home.isError ? (
        <Result
          status="warning"
          title={hm.loadFailed}
          subTitle={errorText(home.error)}
          extra={
            <Button type="primary" onClick={() => void home.refetch()}>
              {hm.retry}
            </Button>
          }
        />
      ) : !home.data ? (
        <div className="home-loading">
          <Spin />
        </div>
      ) : (
        <div className="home-layout" data-testid="home-page">
          {home.data.guide && <GuidePath guide={home.data.guide} />}
          <HomeTodos />
          <ItemSection title={hm.recent} items={home.data.recent} empty={hm.recentEmpty} testId="home-recent" />
          <div className="home-columns">
            <ItemSection title={hm.favouriteBoards} items={home.data.favouriteBoards} empty={hm.favouriteBoardsEmpty} testId="home-favourite-boards" />
            <ItemSection title={hm.favouritePpts} items={home.data.favouritePpts} empty={hm.favouritePptsEmpty} testId="home-favourite-ppts" />
          </div>
          <ItemSection title={hm.shared} items={home.data.sharedBoards} empty={hm.sharedEmpty} testId="home-shared" />
        </div>
      )}
    </PageContainer>
  );
}
