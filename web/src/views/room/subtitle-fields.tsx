/**
 * The subtitle rows of the add-media form: each track from a URL or from a file uploaded here
 * (POST .../subtitle-files; SRT, WebVTT, ASS or SSA, up to 2 MiB: the server converts what the
 * browser needs), with a language and a label, and which one is the room's default (shown to
 * viewers who chose nothing).
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { Field } from '../../ui/field.js';
import { base64Of } from '../../api/base64.js';
import { t as translate } from '../../i18n/i18n.js';
import { useT } from '../../i18n/use-t.js';

/** An example language tag (BCP 47), shown in the empty field. */
const LANGUAGE_EXAMPLE = 'en';

export interface SubtitleRow {
  source: 'url' | 'file';
  url: string;
  /** Set once the chosen file is uploaded. */
  fileId?: string;
  fileName?: string;
  language: string;
  name: string;
  default: boolean;
}

export const newSubtitleRow = (source: SubtitleRow['source']): SubtitleRow => ({ source, url: '', language: '', name: '', default: false });

/** The tracks the rows describe, for playlist.push; rows with nothing in them are left out. */
export function subtitleTracks(rows: readonly SubtitleRow[]) {
  return rows
    .filter((row) => (row.source === 'url' ? row.url.trim() !== '' : row.fileId !== undefined))
    .map((row) => ({
      ...(row.source === 'url' ? { url: row.url.trim() } : { fileId: row.fileId as string }),
      name: row.name.trim() || row.language.trim() || row.fileName || translate('playlist.subtitles.defaultName'),
      ...(row.language.trim() ? { language: row.language.trim() } : {}),
      ...(row.default ? { default: true } : {}),
    }));
}

export function SubtitleFields(props: { roomId: string; rows: SubtitleRow[]; onRows: (rows: SubtitleRow[]) => void; issue: (key: string) => string | undefined }) {
  const { rows, onRows, issue } = props;
  const t = useT();
  const [uploading, setUploading] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<{ index: number; message: string } | null>(null);
  const listIssue = issue('subtitles');
  const set = (index: number, change: Partial<SubtitleRow>) => onRows(rows.map((row, i) => (i === index ? { ...row, ...change } : change.default ? { ...row, default: false } : row)));

  const upload = async (index: number, file: File) => {
    setUploadError(null);
    setUploading(index);
    try {
      const answer = await call(
        api.POST('/api/rooms/{roomId}/subtitle-files', { params: { path: { roomId: props.roomId } }, body: { name: file.name, content: base64Of(await file.arrayBuffer()) } }),
      );
      set(index, { fileId: answer.file.id, fileName: answer.file.name });
    } catch (error) {
      setUploadError({ index, message: error instanceof Error ? error.message : String(error) });
    } finally {
      setUploading(null);
    }
  };

  return (
    <fieldset class="rows">
      <legend>{t('playlist.subtitles.legend')}</legend>
      {rows.map((row, index) => (
        <div class="row" key={index}>
          {row.source === 'url' ? (
            <Field label={t('playlist.subtitles.url', { number: index + 1 })} type="url" value={row.url} onValue={(value) => set(index, { url: value })} error={issue(`subtitles.${index}.url`)} />
          ) : (
            <div class="field">
              <label for={`subtitle-file-${index}`}>{t('playlist.subtitles.file', { number: index + 1 })}</label>
              <input
                id={`subtitle-file-${index}`}
                type="file"
                accept=".srt,.vtt,.ass,.ssa,text/vtt"
                disabled={uploading === index}
                onChange={(event) => {
                  const file = event.currentTarget.files?.[0];
                  if (file) void upload(index, file);
                }}
              />
              {uploading === index && <p class="field-hint">{t('playlist.subtitles.uploading')}</p>}
              {row.fileId && uploading !== index && <p class="field-hint">{t('playlist.subtitles.uploaded', { name: row.fileName })}</p>}
              {uploadError?.index === index && <p class="field-error">{uploadError.message}</p>}
            </div>
          )}
          <Field label={t('playlist.subtitles.language', { number: index + 1 })} value={row.language} onValue={(language) => set(index, { language })} placeholder={LANGUAGE_EXAMPLE} maxLength={35} error={issue(`subtitles.${index}.language`)} />
          <Field label={t('playlist.subtitles.label', { number: index + 1 })} value={row.name} onValue={(name) => set(index, { name })} placeholder={t('playlist.subtitles.labelExample')} error={issue(`subtitles.${index}.name`)} />
          <label class="check">
            <input type="checkbox" checked={row.default} onChange={(event) => set(index, { default: event.currentTarget.checked })} /> {t('playlist.subtitles.roomDefault')}
          </label>
          <button type="button" class="button-quiet" onClick={() => onRows(rows.filter((_, i) => i !== index))}>
            {t('playlist.subtitles.remove', { number: index + 1 })}
          </button>
        </div>
      ))}
      {listIssue && <p class="field-error">{listIssue}</p>}
      <div class="row">
        <button type="button" onClick={() => onRows([...rows, newSubtitleRow('url')])}>
          {t('playlist.subtitles.add')}
        </button>
        <button type="button" onClick={() => onRows([...rows, newSubtitleRow('file')])}>
          {t('playlist.subtitles.upload')}
        </button>
      </div>
    </fieldset>
  );
}
