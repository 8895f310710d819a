import type { ComponentType } from 'react';
import {
  AppstoreOutlined,
  AreaChartOutlined,
  BarChartOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileTextOutlined,
  FundOutlined,
  HomeOutlined,
  LineChartOutlined,
  PieChartOutlined,
  SettingOutlined,
  ShopOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { DEFAULT_MENU_ICON } from '@shutu/contracts/app-constants';

/**
 * Menu icons: the spec stores Element UI names (default el-icon-data-analysis, spec 1 §9); the
 * app draws antd icons. Unknown names fall back to the default's icon.
 */
export const MENU_ICONS: Record<string, { label: string; Icon: ComponentType }> = {
  [DEFAULT_MENU_ICON]: { label: '数据分析', Icon: FundOutlined },
  'el-icon-s-data': { label: '柱状图', Icon: BarChartOutlined },
  'el-icon-pie-chart': { label: '饼图', Icon: PieChartOutlined },
  'el-icon-data-line': { label: '折线图', Icon: LineChartOutlined },
  'el-icon-data-board': { label: '看板', Icon: DashboardOutlined },
  'el-icon-s-marketing': { label: '面积图', Icon: AreaChartOutlined },
  'el-icon-s-home': { label: '首页', Icon: HomeOutlined },
  'el-icon-s-shop': { label: '门店', Icon: ShopOutlined },
  'el-icon-user': { label: '用户', Icon: UserOutlined },
  'el-icon-s-custom': { label: '客户', Icon: TeamOutlined },
  'el-icon-document': { label: '报表', Icon: FileTextOutlined },
  'el-icon-coin': { label: '数据', Icon: DatabaseOutlined },
  'el-icon-menu': { label: '菜单', Icon: AppstoreOutlined },
  'el-icon-setting': { label: '设置', Icon: SettingOutlined },
};

export function MenuIcon({ name }: { name: string | null | undefined }) {
  const { Icon } = MENU_ICONS[name ?? ''] ?? MENU_ICONS[DEFAULT_MENU_ICON]!;
  return <Icon />;
}
