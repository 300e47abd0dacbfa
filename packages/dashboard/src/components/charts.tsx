import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ReactElement } from 'react';
import type { Bucket } from '../usage-buckets';

/** The Overview's charts over the same buckets; each is a figure with its caption as accessible name. */
export function Figure(props: { title: string; children: ReactElement }) {
  return (
    <figure className="chart" aria-label={props.title}>
      <figcaption>{props.title}</figcaption>
      <ResponsiveContainer width="100%" height={200}>
        {props.children}
      </ResponsiveContainer>
    </figure>
  );
}

export function UsageCharts({ buckets }: { buckets: Bucket[] }) {
  return (
    <div className="charts">
      <Figure title="Requests and errors">
        <BarChart data={buckets}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Legend />
          <Bar dataKey="requests" name="requests" fill="#4169e1" isAnimationActive={false} />
          <Bar dataKey="errors" name="errors" fill="#d9534f" isAnimationActive={false} />
        </BarChart>
      </Figure>
      <Figure title="Latency (ms)">
        <LineChart data={buckets}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" />
          <YAxis />
          <Tooltip />
          <Line dataKey="latencyMs" name="mean latency" stroke="#2e8b57" connectNulls isAnimationActive={false} />
        </LineChart>
      </Figure>
      <Figure title="Spend (credits)">
        <AreaChart data={buckets}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" />
          <YAxis />
          <Tooltip />
          <Area dataKey="credits" name="credits" stroke="#8a2be2" fill="#d8bfd8" isAnimationActive={false} />
        </AreaChart>
      </Figure>
    </div>
  );
}
