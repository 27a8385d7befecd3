import type { DocumentSummary } from '../../../shared/contract';

/**
 * The "Document" chooser the tree, review and ask views share: stored documents by name. With `all`, the
 * first choice covers every document (`onChoose(null)`); without it, a document must be chosen.
 */
export function DocumentPicker({
  documents,
  value,
  onChoose,
  label = 'Document',
  all,
}: {
  documents: readonly DocumentSummary[];
  value: number | null;
  onChoose: (documentId: number) => void;
  label?: string;
  all?: { label: string; onChoose(): void };
}) {
  return (
    <label className="inline-field">
      <span>{label}</span>
      <select
        value={value ?? ''}
        onChange={(event) => {
          const id = Number(event.currentTarget.value);
          if (id > 0) onChoose(id);
          else all?.onChoose();
        }}
      >
        <option value="" disabled={!all}>
          {all ? all.label : 'Choose…'}
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
