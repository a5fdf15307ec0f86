import { MSG } from '@onco/domain';

/**
 * English and Chinese texts of the Upload Report dialog (keys `reports.*`), registered with the app in
 * console/src/screens.ts. The spec's texts are copied exactly (spec 2 sections 5 and 8); the dialog falls back to the
 * English text for a key the app lacks.
 */
export const reportsEn = {
  reports: {
    title: 'Upload Report',
    chooseFile: 'Choose a PDF file',
    noFile: 'No file chosen',
    invalidType: 'Invalid file type. Please select a valid file (.pdf).',
    amended: 'Amended report',
    tnp: 'TNP report complete',
    upload: 'Upload',
    cancel: 'Cancel',
    uploading: 'Uploading… %{percent}%',
    saving: 'Saving the report…',
    done: 'The report has been uploaded.',
    failed: MSG.uploadFailed,
    size: '%{size} MB',
  },
};

export const reportsZh = {
  reports: {
    title: '上传报告',
    chooseFile: '选择 PDF 文件',
    noFile: '未选择文件',
    invalidType: '文件类型无效。请选择有效的文件（.pdf）。',
    amended: '修订报告',
    tnp: 'TNP 报告完成',
    upload: '上传',
    cancel: '取消',
    uploading: '正在上传… %{percent}%',
    saving: '正在保存报告…',
    done: '报告已上传。',
    failed: '上传时出错。请重试。',
    size: '%{size} MB',
  },
};
