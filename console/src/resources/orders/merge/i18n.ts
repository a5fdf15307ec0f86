/** Texts of the Merge TRF dialog (keys `merge.*`; spec 2 sections 2.9, 5 and 8). */
export const mergeEn = {
  merge: {
    action: 'Merge TRF',
    title: 'Merge TRF',
    primary: 'Primary TRF',
    duplicate: 'Duplicate TRF',
    chooseDuplicate: 'Choose the duplicate form',
    noOthers: 'No other submitted form of this patient.',
    samples: 'Samples to copy to the primary form',
    noSamples: 'No samples found',
    explain:
      'The duplicate form becomes invalid and links to the primary form; its open tests are cancelled as merged. Selected samples are copied to the primary form first.',
    merge: 'Merge',
    cancel: 'Cancel',
    merged: 'The forms have been merged',
    failed: 'The forms could not be merged',
    copyFailed: 'Samples could not be copied',
    mergedInto: 'This form was merged into %{trf}.',
    openPrimary: 'Open the primary form',
  },
};

export const mergeZh = {
  merge: {
    action: '合并 TRF',
    title: '合并 TRF',
    primary: '主 TRF',
    duplicate: '重复 TRF',
    chooseDuplicate: '选择重复的表单',
    noOthers: '该患者没有其他已提交的表单。',
    samples: '要复制到主表单的样本',
    noSamples: '未找到样本',
    explain: '重复表单将变为无效并链接到主表单；其未完成的检测将作为已合并取消。所选样本会先复制到主表单。',
    merge: '合并',
    cancel: '取消',
    merged: '表单已合并',
    failed: '无法合并表单',
    copyFailed: 'Samples could not be copied',
    mergedInto: '此表单已合并到 %{trf}。',
    openPrimary: '打开主表单',
  },
};
