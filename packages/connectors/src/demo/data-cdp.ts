/**
 * Fixed reference data of the customer-data tables: tag groups, web pages with their click hot
 * spots, marketing task types. Changing anything here changes the generated data: bump
 * GENERATOR_VERSION in generate.ts.
 */

export interface Tag {
  id: number;
  name: string;
  level1: string;
  level2: string;
  group: 'basic' | 'product' | 'network' | 'algorithm';
  /** 1 classification, 2 statistics. */
  tagType: 1 | 2;
  /** 1 algorithm, 2 non-algorithm. */
  developType: 1 | 2;
  desc: string;
}

/** A level-2 tag group; tags in one group are mutually exclusive per user. */
export interface TagGroup {
  level1: string;
  level2: string;
  group: Tag['group'];
  developType: 1 | 2;
  /** 1 classification (default), 2 statistics. */
  tagType?: 2;
  /** Derived from the user's attributes (flow: the user's habitual usage band); otherwise assigned at random. */
  derive?: 'gender' | 'age' | 'net' | 'flow';
  /** Percent of users carrying one tag of this group (derived groups: all). */
  coverPct: number;
  tags: readonly { name: string; weight: number; desc: string }[];
}

export const TAG_GROUPS: readonly TagGroup[] = [
  {
    level1: '基础属性',
    level2: '性别',
    group: 'basic',
    developType: 2,
    derive: 'gender',
    coverPct: 100,
    tags: [
      { name: '男性用户', weight: 0, desc: '登记性别为男' },
      { name: '女性用户', weight: 0, desc: '登记性别为女' },
    ],
  },
  {
    level1: '基础属性',
    level2: '年龄段',
    group: 'basic',
    developType: 2,
    derive: 'age',
    coverPct: 100,
    tags: [
      { name: '24岁及以下', weight: 0, desc: '年龄不超过24岁' },
      { name: '25-34岁', weight: 0, desc: '年龄25至34岁' },
      { name: '35-44岁', weight: 0, desc: '年龄35至44岁' },
      { name: '45-54岁', weight: 0, desc: '年龄45至54岁' },
      { name: '55岁及以上', weight: 0, desc: '年龄55岁及以上' },
    ],
  },
  {
    level1: '产品偏好',
    level2: '订购产品',
    group: 'product',
    developType: 2,
    coverPct: 70,
    tags: [
      { name: '流量产品偏好', weight: 40, desc: '近期主要订购流量类产品' },
      { name: '视听会员偏好', weight: 30, desc: '近期主要订购视听会员' },
      { name: '权益融合偏好', weight: 15, desc: '近期主要订购权益类产品' },
      { name: '通信增值偏好', weight: 15, desc: '近期主要订购通信增值业务' },
    ],
  },
  {
    level1: '产品偏好',
    level2: '产品订购状态',
    group: 'product',
    developType: 2,
    coverPct: 65,
    tags: [
      { name: '新订购用户', weight: 25, desc: '当月首次订购' },
      { name: '持续订购用户', weight: 55, desc: '连续订购三个月以上' },
      { name: '已退订用户', weight: 20, desc: '当月发生退订' },
    ],
  },
  {
    level1: '渠道偏好',
    level2: '订购渠道',
    group: 'product',
    developType: 2,
    coverPct: 60,
    tags: [
      { name: '线上渠道偏好', weight: 50, desc: '主要通过线上渠道订购' },
      { name: '营业厅偏好', weight: 30, desc: '主要在营业厅办理' },
      { name: '热线偏好', weight: 20, desc: '主要通过热线或短信办理' },
    ],
  },
  {
    level1: 'APP使用',
    level2: '月流量使用',
    group: 'network',
    developType: 2,
    tagType: 2,
    derive: 'flow',
    coverPct: 100,
    tags: [
      { name: '0.1G-0.5G', weight: 8, desc: '月流量0.1G至0.5G' },
      { name: '0.5G-2G', weight: 14, desc: '月流量0.5G至2G' },
      { name: '2G-5G', weight: 22, desc: '月流量2G至5G' },
      { name: '5G-10G', weight: 24, desc: '月流量5G至10G' },
      { name: '10G-20G', weight: 20, desc: '月流量10G至20G' },
      { name: '20G以上', weight: 12, desc: '月流量超过20G' },
    ],
  },
  {
    level1: '网络属性',
    level2: '终端网络',
    group: 'network',
    developType: 2,
    derive: 'net',
    coverPct: 100,
    tags: [
      { name: '5G终端用户', weight: 0, desc: '使用5G终端' },
      { name: '4G终端用户', weight: 0, desc: '使用4G终端' },
    ],
  },
  {
    level1: '算法标签',
    level2: '流失预警',
    group: 'algorithm',
    developType: 1,
    coverPct: 45,
    tags: [
      { name: '高流失风险', weight: 20, desc: '模型预测下月流失概率高' },
      { name: '中流失风险', weight: 35, desc: '模型预测下月流失概率中等' },
      { name: '低流失风险', weight: 45, desc: '模型预测下月流失概率低' },
    ],
  },
  {
    level1: '算法标签',
    level2: '潜在价值',
    group: 'algorithm',
    developType: 1,
    coverPct: 35,
    tags: [
      { name: '高价值潜客', weight: 25, desc: '预测ARPU提升潜力高' },
      { name: '5G升级潜客', weight: 40, desc: '预测有5G套餐升级意向' },
      { name: '视频会员潜客', weight: 35, desc: '预测有视频会员订购意向' },
    ],
  },
];

/** Tags flattened with ids 1001, 1002, ... in group order. */
export const TAGS: readonly Tag[] = TAG_GROUPS.flatMap((g) =>
  g.tags.map((t) => ({ name: t.name, desc: t.desc, level1: g.level1, level2: g.level2, group: g.group, tagType: g.tagType ?? 1, developType: g.developType })),
).map((t, index) => ({ ...t, id: 1001 + index }) as Tag);

/** Age band upper bounds matching the 年龄段 tags. */
export const AGE_BAND_MAX = [24, 34, 44, 54];

export interface WebPage {
  title: string;
  path: string;
  platform: 'PC' | 'H5';
  height: number;
  weight: number;
  /** Hot spots: x (per mille of page width), y (px), spread x (per mille), spread y (px), weight. */
  spots: readonly (readonly [number, number, number, number, number])[];
}

export const SITE_ORIGIN = 'https://shop.shutu-demo.example';
export const PC_WIDTHS = [1920, 1920, 1920, 1536, 1440, 1440, 1366, 1280];
export const H5_WIDTHS = [375, 390, 393, 414, 360, 412];
/** Every page also has a diffuse background spot so the whole page gets a few clicks. */
export const BACKGROUND_SPOT_WEIGHT = 8;

export const WEB_PAGES: readonly WebPage[] = [
  {
    title: '网上营业厅-首页',
    path: '/index.html',
    platform: 'PC',
    height: 3200,
    weight: 30,
    spots: [
      [120, 40, 30, 10, 10],
      [620, 40, 160, 10, 14],
      [500, 420, 60, 30, 24],
      [230, 980, 50, 60, 14],
      [500, 980, 50, 60, 12],
      [770, 980, 50, 60, 10],
      [900, 2900, 30, 40, 4],
    ],
  },
  {
    title: '流量专区',
    path: '/flow.html',
    platform: 'PC',
    height: 2600,
    weight: 18,
    spots: [
      [500, 300, 80, 30, 12],
      [200, 760, 40, 40, 18],
      [400, 760, 40, 40, 16],
      [600, 760, 40, 40, 14],
      [800, 760, 40, 40, 10],
      [500, 1500, 120, 80, 8],
    ],
  },
  {
    title: '视听会员专区',
    path: '/vip.html',
    platform: 'PC',
    height: 3000,
    weight: 16,
    spots: [
      [500, 380, 90, 40, 14],
      [180, 900, 50, 60, 16],
      [500, 900, 50, 60, 14],
      [820, 900, 50, 60, 12],
      [180, 1500, 50, 60, 8],
      [500, 1500, 50, 60, 6],
    ],
  },
  {
    title: '5G套餐办理',
    path: '/5g.html',
    platform: 'PC',
    height: 2800,
    weight: 12,
    spots: [
      [300, 600, 60, 50, 18],
      [700, 600, 60, 50, 14],
      [500, 1300, 40, 30, 22],
      [500, 2100, 200, 120, 6],
    ],
  },
  {
    title: '在线客服',
    path: '/service.html',
    platform: 'PC',
    height: 1800,
    weight: 6,
    spots: [
      [500, 1550, 160, 20, 30],
      [880, 300, 40, 120, 10],
      [150, 500, 40, 200, 8],
    ],
  },
  {
    title: '掌厅H5-首页',
    path: '/h5/index.html',
    platform: 'H5',
    height: 2400,
    weight: 24,
    spots: [
      [150, 230, 60, 30, 12],
      [400, 230, 60, 30, 12],
      [650, 230, 60, 30, 10],
      [880, 230, 60, 30, 8],
      [500, 560, 120, 50, 20],
      [500, 2330, 300, 20, 12],
    ],
  },
  {
    title: '权益超市',
    path: '/h5/rights.html',
    platform: 'H5',
    height: 2800,
    weight: 14,
    spots: [
      [250, 700, 90, 80, 16],
      [750, 700, 90, 80, 14],
      [250, 1300, 90, 80, 10],
      [750, 1300, 90, 80, 8],
      [500, 2700, 150, 25, 10],
    ],
  },
  {
    title: '我的订单',
    path: '/h5/orders.html',
    platform: 'H5',
    height: 2000,
    weight: 10,
    spots: [
      [820, 380, 60, 25, 18],
      [820, 700, 60, 25, 14],
      [820, 1020, 60, 25, 10],
      [500, 120, 300, 20, 8],
    ],
  },
];

export const TASK_TYPES: readonly { type: 1 | 2 | 3; name: string; verb: string }[] = [
  { type: 1, name: '激活', verb: '激活营销' },
  { type: 2, name: '营销漏斗', verb: '订购转化' },
  { type: 3, name: '领取', verb: '权益领取' },
];
