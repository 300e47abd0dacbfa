/** One usage-log row as GET /admin/usage/requests and GET /v1/usage show it (`account` only in the admin's). */
export interface UsageRow {
  id: string;
  created_at: number;
  account?: string;
  key_id: string | null;
  request_id: string;
  model: string | null;
  provider: string | null;
  format: string;
  status: string;
  http_status: number;
  error_code: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  latency_ms: number | null;
  credits: number | null;
  task_id: string | null;
}
