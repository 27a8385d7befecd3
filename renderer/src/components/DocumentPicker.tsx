import type { DocumentSummary } from '../../../shared/contract';

/**
 * The "Document" chooser the tree, review and Ask views share: stored documents by name. With `noneLabel`
 * the empty choice is offered too (the Ask panel's "Whole library") and choosing it calls `onClear`.
 */
export function DocumentPicker({
  documents,
  value,
  onChoose,
  label = 'Document',
  noneLabel,
  onClear,
}: {
  documents: readonly DocumentSummary[];
  value: number | null;
  onChoose: (documentId: number) => void;
  label?: string;
  noneLabel?: string;
  onClear?: () => void;
}) {
  return (
    <label className="inline-field">
      <span>{label}</span>
      <select
        value={value ?? ''}
        onChange={(event) => {
          const id = Number(event.currentTarget.value);
          if (id > 0) onChoose(id);
          else onClear?.();
        }}
      >
        <option value="" disabled={noneLabel === undefined}>
          {noneLabel ?? 'Choose…'}
        </option>
        {documents.map((d) => (
          <option key={d.id} value={d.id}>
            {d.fileName}
          </option>
        ))}
      </select>
    </label>
  );
}
