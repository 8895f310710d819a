/**
 * Fixed reference data of the demo warehouse (dimensions, names, weights). Changing anything
 * here changes the generated data: bump GENERATOR_VERSION in generate.ts.
 * Codes are synthetic but shaped like the real ones (GB/T 2260 province prefixes).
 */

export interface Province {
  code: string;
  name: string;
  region: string;
  /** Relative share of users, roughly by mobile subscribers. */
  weight: number;
  areas: readonly string[];
}

export const PROVINCES: readonly Province[] = [
  { code: '110000', name: '北京', region: '华北', weight: 15, areas: ['朝阳', '海淀', '丰台', '东城', '西城'] },
  { code: '120000', name: '天津', region: '华北', weight: 10, areas: ['和平', '南开', '河西', '滨海新区'] },
  { code: '130000', name: '河北', region: '华北', weight: 52, areas: ['石家庄', '唐山', '保定', '邯郸', '廊坊'] },
  { code: '140000', name: '山西', region: '华北', weight: 25, areas: ['太原', '大同', '运城', '长治'] },
  { code: '150000', name: '内蒙古', region: '华北', weight: 17, areas: ['呼和浩特', '包头', '鄂尔多斯', '赤峰'] },
  { code: '210000', name: '辽宁', region: '东北', weight: 30, areas: ['沈阳', '大连', '鞍山', '锦州'] },
  { code: '220000', name: '吉林', region: '东北', weight: 16, areas: ['长春', '吉林', '延边'] },
  { code: '230000', name: '黑龙江', region: '东北', weight: 22, areas: ['哈尔滨', '齐齐哈尔', '大庆', '牡丹江'] },
  { code: '310000', name: '上海', region: '华东', weight: 17, areas: ['浦东新区', '徐汇', '闵行', '静安'] },
  { code: '320000', name: '江苏', region: '华东', weight: 60, areas: ['南京', '苏州', '无锡', '常州', '南通', '徐州'] },
  { code: '330000', name: '浙江', region: '华东', weight: 46, areas: ['杭州', '宁波', '温州', '绍兴', '金华'] },
  { code: '340000', name: '安徽', region: '华东', weight: 43, areas: ['合肥', '芜湖', '阜阳', '安庆'] },
  { code: '350000', name: '福建', region: '华东', weight: 29, areas: ['福州', '厦门', '泉州', '漳州'] },
  { code: '360000', name: '江西', region: '华东', weight: 32, areas: ['南昌', '赣州', '九江', '上饶'] },
  { code: '370000', name: '山东', region: '华东', weight: 70, areas: ['济南', '青岛', '烟台', '潍坊', '临沂'] },
  { code: '410000', name: '河南', region: '华中', weight: 68, areas: ['郑州', '洛阳', '南阳', '新乡', '商丘'] },
  { code: '420000', name: '湖北', region: '华中', weight: 41, areas: ['武汉', '宜昌', '襄阳', '荆州'] },
  { code: '430000', name: '湖南', region: '华中', weight: 47, areas: ['长沙', '株洲', '衡阳', '岳阳', '常德'] },
  { code: '440000', name: '广东', region: '华南', weight: 95, areas: ['广州', '深圳', '东莞', '佛山', '汕头', '珠海'] },
  { code: '450000', name: '广西', region: '华南', weight: 35, areas: ['南宁', '柳州', '桂林', '玉林'] },
  { code: '460000', name: '海南', region: '华南', weight: 7, areas: ['海口', '三亚', '儋州'] },
  { code: '500000', name: '重庆', region: '西南', weight: 23, areas: ['渝中', '江北', '万州', '涪陵'] },
  { code: '510000', name: '四川', region: '西南', weight: 58, areas: ['成都', '绵阳', '南充', '宜宾', '德阳'] },
  { code: '520000', name: '贵州', region: '西南', weight: 27, areas: ['贵阳', '遵义', '毕节'] },
  { code: '530000', name: '云南', region: '西南', weight: 33, areas: ['昆明', '曲靖', '大理', '红河'] },
  { code: '540000', name: '西藏', region: '西南', weight: 3, areas: ['拉萨', '日喀则'] },
  { code: '610000', name: '陕西', region: '西北', weight: 28, areas: ['西安', '宝鸡', '咸阳', '榆林'] },
  { code: '620000', name: '甘肃', region: '西北', weight: 17, areas: ['兰州', '天水', '酒泉'] },
  { code: '630000', name: '青海', region: '西北', weight: 4, areas: ['西宁', '海东'] },
  { code: '640000', name: '宁夏', region: '西北', weight: 5, areas: ['银川', '石嘴山'] },
  { code: '650000', name: '新疆', region: '西北', weight: 18, areas: ['乌鲁木齐', '克拉玛依', '喀什', '伊犁'] },
];

/** Mobile number prefixes (13x / 15x / 18x). */
export const PHONE_PREFIXES = [
  '130',
  '131',
  '132',
  '133',
  '134',
  '135',
  '136',
  '137',
  '138',
  '139',
  '150',
  '151',
  '152',
  '155',
  '157',
  '158',
  '159',
  '180',
  '181',
  '182',
  '183',
  '186',
  '187',
  '188',
  '189',
];

export interface Channel {
  id: string;
  name: string;
  type: string;
  belongto: string;
  /** Share of orders. */
  orderWeight: number;
  /** Share of cancellations. */
  cancelWeight: number;
}

export const CHANNELS: readonly Channel[] = [
  { id: '1001', name: '营业厅', type: '线下', belongto: '省公司', orderWeight: 18, cancelWeight: 14 },
  { id: '1002', name: '社会渠道代理点', type: '线下', belongto: '合作方', orderWeight: 8, cancelWeight: 2 },
  { id: '2001', name: '线上商城', type: '线上', belongto: '集团', orderWeight: 14, cancelWeight: 8 },
  { id: '2002', name: '掌上营业厅APP', type: '线上', belongto: '集团', orderWeight: 20, cancelWeight: 24 },
  { id: '2003', name: '微信公众号', type: '线上', belongto: '省公司', orderWeight: 9, cancelWeight: 7 },
  { id: '2004', name: '支付宝小程序', type: '线上', belongto: '合作方', orderWeight: 5, cancelWeight: 3 },
  { id: '3001', name: '10086热线', type: '热线', belongto: '省公司', orderWeight: 7, cancelWeight: 26 },
  { id: '3002', name: '短信营业厅', type: '热线', belongto: '省公司', orderWeight: 6, cancelWeight: 14 },
  { id: '4001', name: '天猫旗舰店', type: '第三方电商', belongto: '合作方', orderWeight: 5, cancelWeight: 1 },
  { id: '4002', name: '京东旗舰店', type: '第三方电商', belongto: '合作方', orderWeight: 3, cancelWeight: 1 },
  { id: '5001', name: '外呼营销', type: '外呼', belongto: '省公司', orderWeight: 5, cancelWeight: 0 },
];

/** Product-type tree: four fixed level-1 categories, each with level-2 types. */
export const PRODUCT_TYPES: readonly { id: number; name: string; children: readonly { id: number; name: string }[] }[] = [
  {
    id: 1,
    name: '流量产品',
    children: [
      { id: 101, name: '流量日包' },
      { id: 102, name: '流量月包' },
      { id: 103, name: '定向流量包' },
    ],
  },
  {
    id: 2,
    name: '视听会员',
    children: [
      { id: 201, name: '视频会员' },
      { id: 202, name: '音乐会员' },
      { id: 203, name: '阅读会员' },
    ],
  },
  {
    id: 3,
    name: '权益融合',
    children: [
      { id: 301, name: '生活权益' },
      { id: 302, name: '出行权益' },
      { id: 303, name: '游戏权益' },
    ],
  },
  {
    id: 4,
    name: '通信增值',
    children: [
      { id: 401, name: '视频彩铃' },
      { id: 402, name: '安全服务' },
      { id: 403, name: '云存储' },
    ],
  },
];

export interface Product {
  shortname: string;
  spName: string;
  type2: number;
  /** Price in fen (分). */
  priceFen: number;
  billing: '包月' | '包日' | '单次';
  orderWeight: number;
  /** Percent of successful orders later cancelled. */
  cancelPct: number;
}

export const PRODUCTS: readonly Product[] = [
  { shortname: '1元1GB日包', spName: '中国移动', type2: 101, priceFen: 100, billing: '包日', orderWeight: 30, cancelPct: 0 },
  { shortname: '3元3GB日包', spName: '中国移动', type2: 101, priceFen: 300, billing: '包日', orderWeight: 22, cancelPct: 0 },
  { shortname: '5元5GB日包', spName: '中国移动', type2: 101, priceFen: 500, billing: '包日', orderWeight: 12, cancelPct: 0 },
  { shortname: '10元5GB月包', spName: '中国移动', type2: 102, priceFen: 1000, billing: '包月', orderWeight: 28, cancelPct: 18 },
  { shortname: '20元15GB月包', spName: '中国移动', type2: 102, priceFen: 2000, billing: '包月', orderWeight: 24, cancelPct: 20 },
  { shortname: '30元30GB月包', spName: '中国移动', type2: 102, priceFen: 3000, billing: '包月', orderWeight: 16, cancelPct: 22 },
  { shortname: '50元60GB月包', spName: '中国移动', type2: 102, priceFen: 5000, billing: '包月', orderWeight: 8, cancelPct: 25 },
  { shortname: '抖音定向流量包', spName: '字节跳动', type2: 103, priceFen: 900, billing: '包月', orderWeight: 14, cancelPct: 24 },
  { shortname: '腾讯视频定向流量包', spName: '腾讯', type2: 103, priceFen: 900, billing: '包月', orderWeight: 10, cancelPct: 24 },
  { shortname: '快手定向流量包', spName: '快手', type2: 103, priceFen: 900, billing: '包月', orderWeight: 8, cancelPct: 26 },
  { shortname: '腾讯视频VIP月卡', spName: '腾讯', type2: 201, priceFen: 3000, billing: '包月', orderWeight: 20, cancelPct: 30 },
  { shortname: '爱奇艺黄金会员', spName: '爱奇艺', type2: 201, priceFen: 2500, billing: '包月', orderWeight: 16, cancelPct: 32 },
  { shortname: '优酷VIP会员', spName: '阿里巴巴', type2: 201, priceFen: 2500, billing: '包月', orderWeight: 10, cancelPct: 34 },
  { shortname: '芒果TV会员', spName: '芒果超媒', type2: 201, priceFen: 2200, billing: '包月', orderWeight: 7, cancelPct: 33 },
  { shortname: '咪咕视频钻石会员', spName: '咪咕文化', type2: 201, priceFen: 2500, billing: '包月', orderWeight: 9, cancelPct: 28 },
  { shortname: '哔哩哔哩大会员', spName: '哔哩哔哩', type2: 201, priceFen: 2500, billing: '包月', orderWeight: 6, cancelPct: 30 },
  { shortname: 'QQ音乐绿钻', spName: '腾讯音乐', type2: 202, priceFen: 1500, billing: '包月', orderWeight: 10, cancelPct: 27 },
  { shortname: '网易云音乐黑胶VIP', spName: '网易', type2: 202, priceFen: 1500, billing: '包月', orderWeight: 8, cancelPct: 27 },
  { shortname: '酷狗音乐豪华VIP', spName: '腾讯音乐', type2: 202, priceFen: 1500, billing: '包月', orderWeight: 6, cancelPct: 29 },
  { shortname: '咪咕音乐白金会员', spName: '咪咕文化', type2: 202, priceFen: 1000, billing: '包月', orderWeight: 5, cancelPct: 26 },
  { shortname: '咪咕阅读包月', spName: '咪咕文化', type2: 203, priceFen: 1000, billing: '包月', orderWeight: 4, cancelPct: 35 },
  { shortname: '喜马拉雅VIP', spName: '喜马拉雅', type2: 203, priceFen: 2500, billing: '包月', orderWeight: 4, cancelPct: 31 },
  { shortname: '美团外卖红包权益包', spName: '美团', type2: 301, priceFen: 1500, billing: '包月', orderWeight: 8, cancelPct: 30 },
  { shortname: '饿了么超级会员', spName: '阿里巴巴', type2: 301, priceFen: 1000, billing: '包月', orderWeight: 6, cancelPct: 30 },
  { shortname: '盒马权益包', spName: '阿里巴巴', type2: 301, priceFen: 1990, billing: '包月', orderWeight: 3, cancelPct: 32 },
  { shortname: '滴滴出行权益包', spName: '滴滴出行', type2: 302, priceFen: 1990, billing: '包月', orderWeight: 5, cancelPct: 28 },
  { shortname: '高德打车券包', spName: '阿里巴巴', type2: 302, priceFen: 990, billing: '单次', orderWeight: 4, cancelPct: 0 },
  { shortname: '携程出行礼包', spName: '携程', type2: 302, priceFen: 2900, billing: '单次', orderWeight: 2, cancelPct: 0 },
  { shortname: '王者荣耀点券包', spName: '腾讯', type2: 303, priceFen: 3000, billing: '单次', orderWeight: 4, cancelPct: 0 },
  { shortname: '和平精英礼包', spName: '腾讯', type2: 303, priceFen: 3000, billing: '单次', orderWeight: 3, cancelPct: 0 },
  { shortname: '咪咕快游会员', spName: '咪咕文化', type2: 303, priceFen: 1500, billing: '包月', orderWeight: 3, cancelPct: 36 },
  { shortname: '视频彩铃基础包', spName: '中国移动', type2: 401, priceFen: 500, billing: '包月', orderWeight: 12, cancelPct: 38 },
  { shortname: '视频彩铃尊享包', spName: '中国移动', type2: 401, priceFen: 1000, billing: '包月', orderWeight: 5, cancelPct: 36 },
  { shortname: '来电提醒', spName: '中国移动', type2: 402, priceFen: 300, billing: '包月', orderWeight: 9, cancelPct: 15 },
  { shortname: '骚扰拦截', spName: '中国移动', type2: 402, priceFen: 300, billing: '包月', orderWeight: 7, cancelPct: 14 },
  { shortname: '号码保护', spName: '中国移动', type2: 402, priceFen: 500, billing: '包月', orderWeight: 3, cancelPct: 18 },
  { shortname: '和彩云个人版50G', spName: '中国移动', type2: 403, priceFen: 500, billing: '包月', orderWeight: 5, cancelPct: 20 },
  { shortname: '和彩云家庭版200G', spName: '中国移动', type2: 403, priceFen: 1000, billing: '包月', orderWeight: 3, cancelPct: 20 },
];

export const CANCEL_REASONS = ['费用过高', '不再需要', '误订购', '服务体验差', '更换其他产品', '营销短信打扰', '套餐变更', '其他'];
export const CANCEL_REASON_WEIGHTS = [22, 24, 12, 10, 12, 6, 8, 6];
