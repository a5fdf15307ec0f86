/** Texts of the order timeline (keys `timeline.*`), English and Chinese. */
export const timelineEn = {
  timeline: {
    title: 'Timeline',
    empty: 'Nothing has happened to this order yet.',
    loading: 'Loading....',
    onlyThisTest: 'Only this test',
    submitted: 'Order %{trf} submitted',
    trf: 'TRF PDF generated (%{name})',
    attachmentAdded: 'File attached: %{name} (%{type})',
    testCreated: 'Test %{test} ordered (%{type})',
    testStatus: 'Test %{test}: %{from} → %{to}',
    testReport: 'Test %{test}: report version %{version} uploaded (%{file}) → %{to}',
    testReportAmended: 'Test %{test}: amended report, version %{version} (%{file}) → %{to}',
    dueSet: 'Test %{test}: due date %{date}',
    dueRemoved: 'Test %{test}: due date removed',
    lims: 'Test %{test}: LIMS Project # %{lims}',
    testMerged: 'Test %{test}: merged → %{to}',
    sample: '%{type} sample %{lims}: %{change} (%{status})',
    sampleChange: { created: 'added', updated: 'updated', copied: 'copied from another order' },
    changed: {
      deleted: 'Order deleted',
      'clinical-review-changed': 'Clinical review: %{from} → %{to}',
      invalidated: 'Order merged into another order (invalid)',
      'parties-changed': 'Account, provider, location or patient edited',
      'billing-review-changed': 'Billing review changed',
      'billing-changed': 'Billing information or ICD-10 codes edited',
      'patient-changed': 'Moved to another patient (patient merge)',
      'form-edited': 'Form edited: %{fields}',
      'financial-assistance-changed': 'Financial assistance: %{outcome}',
      other: 'Order changed',
    },
    billingCreated: 'Billing case opened (%{to})',
    billingStatus: 'Billing case: %{from} → %{to}',
    billingUpdated: 'Billing case updated (%{to})',
    comment: 'Comment: %{text}',
    by: 'by %{name}',
    system: 'system',
  },
};

export const timelineZh: typeof timelineEn = {
  timeline: {
    title: '时间线',
    empty: '此订单尚无任何记录。',
    loading: '加载中....',
    onlyThisTest: '仅此检测',
    submitted: '订单 %{trf} 已提交',
    trf: '已生成 TRF PDF（%{name}）',
    attachmentAdded: '已添加附件：%{name}（%{type}）',
    testCreated: '检测 %{test} 已下单（%{type}）',
    testStatus: '检测 %{test}：%{from} → %{to}',
    testReport: '检测 %{test}：已上传报告版本 %{version}（%{file}）→ %{to}',
    testReportAmended: '检测 %{test}：修订报告，版本 %{version}（%{file}）→ %{to}',
    dueSet: '检测 %{test}：截止日期 %{date}',
    dueRemoved: '检测 %{test}：已移除截止日期',
    lims: '检测 %{test}：LIMS 项目编号 %{lims}',
    testMerged: '检测 %{test}：已合并 → %{to}',
    sample: '%{type} 样本 %{lims}：%{change}（%{status}）',
    sampleChange: { created: '已添加', updated: '已更新', copied: '已从其他订单复制' },
    changed: {
      deleted: '订单已删除',
      'clinical-review-changed': '临床审核：%{from} → %{to}',
      invalidated: '订单已合并到其他订单（无效）',
      'parties-changed': '账户、医生、地点或患者已编辑',
      'billing-review-changed': '账单审核已变更',
      'billing-changed': '账单信息或 ICD-10 编码已编辑',
      'patient-changed': '已移至其他患者（患者合并）',
      'form-edited': '表单已编辑：%{fields}',
      'financial-assistance-changed': '经济援助：%{outcome}',
      other: '订单已变更',
    },
    billingCreated: '已创建计费案例（%{to}）',
    billingStatus: '计费案例：%{from} → %{to}',
    billingUpdated: '计费案例已更新（%{to}）',
    comment: '评论：%{text}',
    by: '操作人 %{name}',
    system: '系统',
  },
};

/**
 * The `timeline.changed.*` key of one requisition change: its own text, or `other` for a change this console has
 * no text for yet (an entry never reads as a raw translation key).
 */
export function changeKey(change: string): string {
  return Object.hasOwn(timelineEn.timeline.changed, change) && change !== 'other' ? change : 'other';
}

/**
 * The text of a billing-case entry: opened, a status change (from → to), or a change that kept the status (billing
 * code, assignee, the test's status), which read as the same "Billing case: Not Submitted" line again and again.
 */
export function billingKey(
  kind: string,
  d: { caseStatus?: string | null; previousStatus?: string | null },
): 'timeline.billingCreated' | 'timeline.billingStatus' | 'timeline.billingUpdated' {
  if (kind === 'created' || !d.previousStatus) return 'timeline.billingCreated';
  return d.previousStatus !== d.caseStatus ? 'timeline.billingStatus' : 'timeline.billingUpdated';
}
