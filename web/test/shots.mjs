// Screenshots of the page for the README and docs/browser.md (tools/web/web_shots.py,
// `make web-shots`):
//
//   node web/test/shots.mjs --url http://127.0.0.1:PORT/ --out DIR
//
// A phone in portrait (390 x 844) and in landscape (844 x 390), both touch screens, and a
// laptop (1280 x 800), each in the same moment of a Shake Up game against a CPU (seeded
// dice, the clock stepped by the script, so the panel shows the same frame each time).
import { launch } from "./browser.mjs";
import { TOUCH } from "./phone.mjs";
import path from "node:path";

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));

const PHONE = { ...TOUCH, deviceScaleFactor: 1 };
const SIZES = [["web-phone", { width: 390, height: 844 }, PHONE],
  ["web-phone-landscape", { width: 844, height: 390 }, PHONE],
  ["web-laptop", { width: 1280, height: 800 }, { deviceScaleFactor: 1 }]];

for (const [name, viewport, extra] of SIZES) {
  const { context, close } = await launch(viewport, extra);
  const page = context.pages()[0] || await context.newPage();
  await page.goto(args.url + `?clock=step&seed=5&slot=shots-${name}`);
  await page.evaluate(() => window.pd.ready);
  const step = (n) => page.evaluate((k) => window.pd.step(k), n);
  const tap = async (b) => {
    const box = await page.locator(`[data-b="${b}"]`).boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await step(3);
    await page.mouse.up();
    await step(8);
  };
  await step(50);           // the splash, then the menu
  await tap("OK");          // SHAKE UP
  await tap("OK");          // START: you against a NORMAL CPU
  await step(20);
  // RED's roll-off die: shake (the SHAKE button held), then still until it lands.
  const box = await page.locator('[data-b="SHAKE"]').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await step(25);
  await page.mouse.up();
  await step(140);          // the CPU's roll-off, then who starts
  for (let i = 0; i < 400; i++) {  // on to the first moment the human holds four dice
    const s = await page.evaluate(() => window.pd.state());
    if (process.env.SHOTS_DEBUG) console.log(JSON.stringify(s));
    const human = s.screen === "pass" || (s.ack ? !s.by_cpu : !s.cpus[s.player]);
    if (s.screen === "shakeup" && s.view === 2 && human && !s.ack && !s.tumbling && !s.notice) break;
    if (!human || s.tumbling) await step(10);
    else if (s.rolling) {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await step(25);
      await page.mouse.up();
      await step(30);
    } else await tap("OK");
  }
  await step(5);
  await page.mouse.move(0, 0);
  const file = path.join(args.out, name + ".png");
  await page.screenshot({ path: file });
  console.log(file);
  await close();
}
