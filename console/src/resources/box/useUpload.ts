import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { BOX_DEFAULT_TYPE, MSG_BOX_FILE_TYPE, isBoxFileName } from '@onco/domain';
import { useMessagesT, useToast } from '../../components';
import { useBoxMethods, type ManifestCheck } from './api';
import { messageOf } from './dialogShared';
import { boxEn } from './i18n';

/** The account uploads go to: the one named in the console's build configuration (spec 3 section 7.2). */
const BOX_ACCOUNT_NAME = (import.meta.env.VITE_BOX_ACCOUNT_NAME as string | undefined) ?? '';

/**
 * Add Attachment's state: the account, the chosen file and its type, the dry run ("Check file") and the upload
 * with its percent; leaving the dialog aborts what runs.
 */
export function useUpload(onDone: () => void) {
  const t = useMessagesT(boxEn);
  const toast = useToast();
  const box = useBoxMethods();
  const abort = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [type, setType] = useState<string>(BOX_DEFAULT_TYPE);
  const [problem, setProblem] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [checking, setChecking] = useState(false);
  const [checked, setChecked] = useState<ManifestCheck | null>(null);
  const account = useQuery({
    queryKey: ['boxAccount', BOX_ACCOUNT_NAME],
    queryFn: async () => (await box.getBoxAccount({ name: BOX_ACCOUNT_NAME })).data,
  });
  useEffect(() => () => abort.current?.abort(), []);

  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0] ?? null;
    e.target.value = ''; // choosing the same file again (after fixing it) fires again
    setChecked(null);
    if (f && !isBoxFileName(f.name)) {
      setFile(null);
      setProblem(MSG_BOX_FILE_TYPE);
      return;
    }
    setProblem(null);
    setFile(f);
  };
  const chooseType = (value: string) => {
    setType(value);
    setChecked(null);
  };
  const check = async () => {
    if (!file) return;
    setChecking(true);
    setProblem(null);
    setChecked(null);
    abort.current = new AbortController();
    try {
      setChecked((await box.checkManifest({ file, signal: abort.current.signal })).data);
    } catch (e) {
      if ((e as Error)?.name !== 'AbortError') setProblem(messageOf(e, t('box.checkFailed')));
    } finally {
      setChecking(false);
    }
  };
  const upload = async () => {
    if (!file || !account.data) return;
    setProblem(null);
    setPercent(0);
    abort.current = new AbortController();
    try {
      await box.uploadAttachment({
        file,
        type,
        account: account.data,
        onProgress: setPercent,
        signal: abort.current.signal,
      });
      toast('success', t('box.uploaded'));
      onDone();
    } catch (e) {
      setPercent(null);
      if ((e as Error)?.name === 'AbortError') return;
      // the server's message (e.g. the Box's file-type text) in the dialog, so the user can choose again
      setProblem(messageOf(e, t('box.uploadFailed')));
    }
  };
  const busy = percent !== null || checking;
  return {
    account,
    file,
    type,
    problem,
    percent,
    checking,
    checked,
    busy,
    choose,
    chooseType,
    check,
    upload,
  };
}
