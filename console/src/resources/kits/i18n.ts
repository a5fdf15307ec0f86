import { KIT_MSG } from '@onco/domain';

/** Texts of the Test Kits screen (keys `kits.*`); spec texts exact (spec 2 sections 2.10, 8). */
export const kitsEn = {
  kits: {
    title: 'Test Kits',
    subtitle: 'Request sample collection kits and follow what you requested',
    empty: KIT_MSG.empty,
    received: KIT_MSG.received,
    failed: KIT_MSG.failed,
    requestTitle: 'Request Kits',
    submit: 'Request Kits',
    col: {
      testKitType: 'Test Kit Type',
      numberOfKits: 'Number of Kits',
      recipient: 'Recipient',
      shippingRequest: 'Shipping Request',
      createdOn: 'Requested On',
    },
    field: {
      account: 'Account',
      testKitType: 'Test Kit Type',
      numberOfKits: 'Number of Kits',
      recipient: 'Recipient',
      institute: 'Institute',
      street: 'Street',
      suite: 'Suite',
      city: 'City',
      state: 'State',
      postalCode: 'Zip Code',
      shippingRequest: 'Shipping Request',
    },
    shipping: { GROUND: 'Ground', TWO_DAY: 'Two-day', OVER_NIGHT: 'Overnight' },
    /** the form's field messages (@onco/domain validateKitForm, also the server's 400 details) */
    msg: {
      required: KIT_MSG.required,
      quantity: KIT_MSG.quantity,
      city: KIT_MSG.city,
      postalCode: KIT_MSG.postalCode,
      state: KIT_MSG.state,
      tooLong: 'At most %{max} characters',
    },
  },
};

/** The shape of kitsEn with any text (its spec texts are literal types). */
type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };

/** Simplified Chinese texts of the Test Kits screen: every English key. */
export const kitsZh: Texts<typeof kitsEn> = {
  kits: {
    title: '检测试剂盒',
    subtitle: '申请样本采集试剂盒，并跟踪您的申请',
    empty: '暂无试剂盒申请',
    received: '我们已收到您的试剂盒申请。',
    failed: '申请试剂盒出错，请重试。',
    requestTitle: '申请试剂盒',
    submit: '申请试剂盒',
    col: {
      testKitType: '试剂盒类型',
      numberOfKits: '试剂盒数量',
      recipient: '收件人',
      shippingRequest: '配送方式',
      createdOn: '申请时间',
    },
    field: {
      account: '机构',
      testKitType: '试剂盒类型',
      numberOfKits: '试剂盒数量',
      recipient: '收件人',
      institute: '机构名称',
      street: '街道',
      suite: '套房/单元',
      city: '城市',
      state: '州',
      postalCode: '邮政编码',
      shippingRequest: '配送方式',
    },
    shipping: { GROUND: '陆运', TWO_DAY: '两日达', OVER_NIGHT: '次日达' },
    msg: {
      required: '此字段为必填项',
      quantity: '请输入 1 到 1000 之间的整数',
      city: '城市名称只能包含字母、连字符、句点和空格',
      postalCode: '请输入 12345 或 12345-6789 格式的邮政编码',
      state: '请从列表中选择州',
      tooLong: '最多 %{max} 个字符',
    },
  },
};

/**
 * The translation key (and values) of a kit form message, @onco/domain's KIT_MSG as validateKitForm and the
 * server's 400 give it; null for a text it does not know (shown as it came).
 */
export function kitMessageKey(text: string): { key: string; values?: Record<string, number> } | null {
  for (const k of ['required', 'quantity', 'city', 'postalCode', 'state'] as const) {
    if (text === KIT_MSG[k]) return { key: `kits.msg.${k}` };
  }
  const long = /^At most (\d+) characters$/.exec(text);
  if (long && text === KIT_MSG.tooLong(Number(long[1]))) {
    return { key: 'kits.msg.tooLong', values: { max: Number(long[1]) } };
  }
  return null;
}
