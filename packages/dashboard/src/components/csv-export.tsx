import { useState } from 'react';
import { download } from '../api';

/**
 * A filtered log's CSV export: fetched with the page's filters and saved as `filename`. It never rejects: a failure
 * comes back as `exportError` for the page to show, so an event handler can drop the promise (void).
 */
export function useCsvExport(fetchCsv: () => Promise<Response>, filename: string) {
  const [exportError, setExportError] = useState<string | null>(null);
  const exportCsv = async () => {
    setExportError(null);
    try {
      await download(await fetchCsv(), filename);
    } catch (e) {
      setExportError((e as Error).message);
    }
  };
  return { exportError, exportCsv };
}

/** A filter form's buttons: apply the filters, or export what they select. */
export function FilterActions({ onExport }: { onExport: () => Promise<void> }) {
  return (
    <div className="actions">
      <button type="submit">Apply filters</button>
      <button type="button" onClick={() => void onExport()}>
        Export CSV
      </button>
    </div>
  );
}
