// chart.js, the Reports screen's one chunk of its own: loaded when the first chart is drawn,
// never with the app's first JS. Only the bar chart's parts are registered, so the rest of the
// library is left out of the bundle. It imports nothing of the app (React included), so the
// bundler keeps it a chunk apart without splitting the app's shared code around it.

import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export interface BarSpec {
  /** One label per bar group (a day), and the longer title its tooltip shows. */
  labels: string[];
  titles: string[];
  datasets: { label: string; color: string; values: number[]; texts: string[] }[];
  stacked: boolean;
  /** Counts: whole numbers on the axis. */
  counts: boolean;
  colors: { text: string; grid: string };
}

/** Draws the chart on the canvas; the returned function takes it down. */
export function drawBarChart(canvas: HTMLCanvasElement, spec: BarSpec): () => void {
  const { colors } = spec;
  const config: ChartConfiguration<'bar', number[], string> = {
    type: 'bar',
    data: {
      labels: spec.labels,
      datasets: spec.datasets.map((s) => ({
        label: s.label,
        data: s.values,
        backgroundColor: s.color,
      })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        x: { stacked: spec.stacked, ticks: { color: colors.text }, grid: { display: false } },
        y: {
          stacked: spec.stacked,
          beginAtZero: true,
          ticks: { color: colors.text, ...(spec.counts ? { precision: 0 } : {}) },
          grid: { color: colors.grid },
        },
      },
      plugins: {
        legend: { labels: { color: colors.text } },
        tooltip: {
          callbacks: {
            title: (items) => spec.titles[items[0]?.dataIndex ?? 0] ?? '',
            label: (item) => {
              const set = spec.datasets[item.datasetIndex];
              return `${set?.label ?? ''}: ${set?.texts[item.dataIndex] ?? ''}`;
            },
          },
        },
      },
    },
  };
  const chart = new Chart(canvas, config);
  return () => chart.destroy();
}
