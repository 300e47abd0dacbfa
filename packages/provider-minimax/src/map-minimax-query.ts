import { generationFailed, missingVideo, type VideoStatus } from '@gateway/provider-kit';
import type { MiniMaxQuery } from './minimax-api';

/** A query answer → the port's status. `open` retrieves the file's download URL at copy time (it expires). */
export function mapMiniMaxQuery(q: MiniMaxQuery, open: (fileId: string) => Promise<NodeJS.ReadableStream>): VideoStatus {
  switch (q.status) {
    case 'Preparing':
    case 'Queueing':
      return { state: 'pending', running: false };
    case 'Success': {
      const fileId = q.file_id;
      if (!fileId) return missingVideo('a file id');
      // The query states the pixel size (video_width, video_height), never the length or frame rate. What it leaves
      // out stays out: the worker measures the stored file rather than billing the request.
      const w = q.video_width ?? 0;
      const h = q.video_height ?? 0;
      return { state: 'succeeded', artifact: { ...(w > 0 && h > 0 ? { width: w, height: h } : {}), open: () => open(fileId) } };
    }
    case 'Fail': {
      const code = q.base_resp?.status_code;
      return generationFailed(
        code === 1026 || code === 1027 ? 'content_filtered' : code ? `minimax_${code}` : undefined,
        q.base_resp?.status_msg,
      );
    }
    default:
      // Processing, or a word this adapter does not know yet: still working (the gateway's expiry bounds it)
      return { state: 'pending', running: true };
  }
}
