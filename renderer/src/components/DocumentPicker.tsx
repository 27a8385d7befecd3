import type { DocumentSummary } from '../../../shared/contract';

/** The "Document" chooser the tree and review views share: stored documents by name. */
export function DocumentPicker({ documents, value, onChoose }: { documents: readonly DocumentSummary[]; value: number | null; onChoose: (documentId: number) => void }) {
  return (
    <label className="inline-field">
      <span>Document</span>
      <select
        value={value ?? ''}
        onChange={(event) => {
          const id = Number(event.currentTarget.value);
          if (id > 0) onChoose(id);
        }}
      >
        <option value="" disabled>
          Choose…
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
