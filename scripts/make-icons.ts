// `npm run icons`: renders resources/icon.svg, the one source of Paydesk's app icon, into every
// file electron-builder uses (electron-builder.yml), and commits nothing by itself: the results
// are committed, so `npm run dist` needs neither this script nor Chromium.
//
//   resources/icons/<N>x<N>.png   Linux (AppImage, deb): N = 16 ... 1024
//   resources/icon.png            1024 px, the fallback electron-builder takes for any platform
//   resources/icon.ico            Windows: 16 ... 256, each stored as PNG (Windows Vista and later)
//   resources/icon.icns           macOS: 16 ... 1024 (with the @2x variants), each stored as PNG
//
// The SVG is rendered by Debian's Chromium through playwright-core (what the browser tests use),
// at each size separately so small sizes are drawn, not scaled down. ICO and ICNS are containers
// of PNGs with a small header, written here directly.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { chromium } from 'playwright-core';

const resources = path.resolve(import.meta.dirname, '..', 'resources');
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024] as const;
type Size = (typeof SIZES)[number];

async function render(svg: string): Promise<Map<Size, Buffer>> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const pngs = new Map<Size, Buffer>();
    const source = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    for (const size of SIZES) {
      await page.setViewportSize({ width: size, height: size });
      await page.setContent(
        `<style>html,body{margin:0;background:transparent}img{display:block}</style>` +
          `<img src="${source}" width="${size}" height="${size}">`,
      );
      await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
      pngs.set(size, await page.screenshot({ omitBackground: true, type: 'png' }));
    }
    return pngs;
  } finally {
    await browser.close();
  }
}

/** An .ico file: ICONDIR, one 16-byte ICONDIRENTRY per image, then the PNGs themselves. */
export function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, index) => {
    const entry = 6 + 16 * index;
    header.writeUInt8(size >= 256 ? 0 : size, entry); // 0 means 256
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt8(0, entry + 2); // no palette
    header.writeUInt8(0, entry + 3); // reserved
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map(({ png }) => png)]);
}

/** An .icns file: 'icns' and the total length, then per image its 4-letter type, length, PNG. */
export function icns(images: { type: string; png: Buffer }[]): Buffer {
  const chunks = images.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + chunks.reduce((sum, chunk) => sum + chunk.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}

// The ICNS types that hold PNG data, as Apple's iconutil writes them.
const ICNS_TYPES: [string, Size][] = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32], // 16@2x
  ['icp6', 64],
  ['ic12', 64], // 32@2x
  ['ic07', 128],
  ['ic08', 256],
  ['ic13', 256], // 128@2x
  ['ic09', 512],
  ['ic14', 512], // 256@2x
  ['ic10', 1024], // 512@2x
];

async function main() {
  const pngs = await render(readFileSync(path.join(resources, 'icon.svg'), 'utf8'));
  const png = (size: Size) => pngs.get(size) as Buffer;

  mkdirSync(path.join(resources, 'icons'), { recursive: true });
  for (const size of SIZES) {
    writeFileSync(path.join(resources, 'icons', `${size}x${size}.png`), png(size));
  }
  writeFileSync(path.join(resources, 'icon.png'), png(1024));
  const icoSizes = [16, 24, 32, 48, 64, 128, 256] as const;
  writeFileSync(
    path.join(resources, 'icon.ico'),
    ico(icoSizes.map((size) => ({ size, png: png(size) }))),
  );
  writeFileSync(
    path.join(resources, 'icon.icns'),
    icns(ICNS_TYPES.map(([type, size]) => ({ type, png: png(size) }))),
  );
  console.log(`Wrote resources/icons/*.png (${SIZES.join(', ')}), icon.png, icon.ico, icon.icns`);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === import.meta.filename) {
  await main();
}
