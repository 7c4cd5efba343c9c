// The web page in a real browser: Debian's headless Chromium (software
// WebGL) driven by playwright-core, against web/dist served on loopback
// by `scripts/web.sh --serve`. Build the page first (scripts/web.sh) and
// the desktop binary (cargo build): the page's answers are checked
// against the desktop's `pnlab solve` on the same position.
//
//   cd tests/web && npm ci && node --test page.test.mjs
//
// Environment: CHROMIUM (default /usr/bin/chromium), PNLAB_BIN (default
// target/debug/pnlab), WEB_SCREENSHOTS (default target/web-screenshots).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, launchChromium } from "./browser.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = path.resolve(root, process.env.PNLAB_BIN ?? "target/debug/pnlab");
const shots = path.resolve(root, process.env.WEB_SCREENSHOTS ?? "target/web-screenshots");
const STATE = "pnlab-state ";
const FIRST_FRAME = "pnlab-first-frame-ms ";
// Generous: software WebGL on a loaded 2-core machine. The page reports
// when it is done; nothing here depends on how fast.
const WAIT_MS = 240_000;

let server;
let base;
let browser;

before(async () => {
  assert.ok(fs.existsSync(path.join(root, "web/dist/index.html")), "run scripts/web.sh first");
  ({ server, base } = await startServer(path.join(root, "scripts/web.sh"), ["--serve", "0"], root));
  browser = await launchChromium();
  fs.mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

/** Opens the page at `query` and collects its console lines. */
async function open(query, viewport = { width: 1500, height: 950 }) {
  const page = await browser.newPage({ viewport, acceptDownloads: true });
  const lines = [];
  const errors = [];
  page.on("console", (m) => lines.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base + query);
  return { page, lines, errors };
}

/** Waits for the console line starting with `prefix`; returns its rest. */
async function line(page, lines, prefix) {
  const found = () => lines.find((l) => l.startsWith(prefix));
  await page.waitForFunction(() => true); // the page is alive
  const deadline = Date.now() + WAIT_MS;
  while (!found()) {
    if (Date.now() > deadline) throw new Error(`no console line "${prefix}…"; saw:\n${lines.join("\n")}`);
    await page.waitForTimeout(100);
  }
  return found().slice(prefix.length);
}

/** The desktop's answer for the same question (`pnlab solve --json`). */
function nativeSolve(file, algo) {
  const out = execFileSync(bin, ["solve", file, "--algo", algo, "--json"], { cwd: root });
  return JSON.parse(out.toString().trim().split("\n")[0]);
}

/** Saves a screenshot and checks it is a real picture. */
async function shoot(page, name) {
  const file = path.join(shots, `${name}.png`);
  const { height } = page.viewportSize();
  await page.mouse.move(0, height - 10); // no hover tooltip in the picture
  await page.screenshot({ path: file });
  execFileSync("python3", [path.join(root, "scripts/png_not_blank.py"), file], { stdio: "inherit" });
  return file;
}

// The File menu's Export entries, where egui draws them in a 1500×950
// page (File at the menu bar's left, Export its fourth entry, the
// submenu to its right).
const EXPORT_ROWS = {
  "Tree as DOT…": 108,
  "Tree as SVG…": 131,
  "Window as PNG…": 154,
  "Curves as CSV…": 177,
  "Run as JSON…": 200,
  "Proof certificate…": 223,
};

/** Chooses File › Export › `entry` and returns the downloaded file. */
async function exportDownload(page, entry) {
  const y = EXPORT_ROWS[entry];
  await page.mouse.click(19, 12);
  await page.waitForTimeout(400);
  await page.mouse.move(40, 108);
  await page.waitForTimeout(400);
  await page.mouse.move(150, 108);
  await page.mouse.move(170, y);
  await page.waitForTimeout(300);
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: WAIT_MS }),
    page.mouse.click(170, y),
  ]);
  const file = path.join(shots, download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

test("the seesaw tree link runs PNS to the desktop's answer", async (t) => {
  const native = nativeSolve("positions/trees/seesaw.tree", "pns");
  // The file's notes state the answer (a win for the OR player, checked
  // against the exhaustive reference in tests/tree_format.rs).
  assert.equal(native.outcome, "proved");
  const { page, lines, errors } = await open(
    `?open=trees/seesaw.tree&algo=pns&autoplay=${native.iterations + 1000}`,
  );
  const state = JSON.parse(await line(page, lines, STATE));
  t.diagnostic(`first frame at ${lines.find((l) => l.startsWith(FIRST_FRAME))?.slice(FIRST_FRAME.length)} ms`);
  assert.deepEqual(errors, []);
  assert.equal(state.driver, "cooperative");
  assert.equal(state.position, native.name);
  assert.equal(state.algo, "pns");
  assert.equal(state.status, "proved");
  assert.equal(state.outcome, native.outcome);
  assert.equal(state.error, null);
  // Deterministic search: the same iterations, nodes and best move.
  assert.equal(state.iterations, native.iterations);
  assert.equal(state.nodes_created, native.nodes_created);
  assert.equal(state.seesaw_root_switches, native.seesaw_root_switches);
  assert.equal(state.best_move, native.best_move);
  // The exhaustive reference, worked out in the page, agrees.
  assert.ok(Array.isArray(state.correct_moves) && state.correct_moves.includes(state.best_move),
    `best move ${state.best_move} not among ${JSON.stringify(state.correct_moves)}`);
  assert.match(await page.title(), /proved at iteration \d+/);
  await shoot(page, "seesaw-pns-proved");

  // Exports leave as downloads: the run as JSON says what the desktop
  // says, and the proof certificate passes the desktop's checker.
  const run = JSON.parse(fs.readFileSync(await exportDownload(page, "Run as JSON…"), "utf8"));
  assert.equal(run.outcome, native.outcome);
  assert.equal(run.iterations, native.iterations);
  const proof = await exportDownload(page, "Proof certificate…");
  execFileSync(bin, ["verify", proof], { cwd: root, stdio: "inherit" });
  const svg = fs.readFileSync(await exportDownload(page, "Tree as SVG…"), "utf8");
  assert.match(svg, /^<svg /);
  await page.close();
});

test("the issue's link stops after 12 iterations and draws the tree", async (t) => {
  // A projector's or laptop's window.
  const { page, lines, errors } = await open("?open=trees/seesaw.tree&algo=pns&autoplay=12", {
    width: 1280,
    height: 720,
  });
  const state = JSON.parse(await line(page, lines, STATE));
  const ms = Number(await line(page, lines, FIRST_FRAME));
  t.diagnostic(`first frame at ${ms} ms after navigation`);
  assert.deepEqual(errors, []);
  assert.equal(state.iteration, 12);
  assert.equal(state.status, "paused");
  assert.equal(state.position, "Seesaw");
  const file = await shoot(page, "seesaw-pns-12");
  t.diagnostic(`screenshot: ${path.relative(root, file)}`);
  await page.close();
});

test("a lesson link opens the lesson player on its first step", async (t) => {
  // Lesson 2's first step: PNS with leftmost ties on the lecture's
  // most-proving-node tree at iteration 1; the link's autoplay runs
  // nothing further (the step's question is about that tree).
  const native = nativeSolve("positions/trees/lecture-mpn.tree", "pns");
  const { page, lines, errors } = await open("?lesson=02-pns-step-by-step&autoplay=1");
  const state = JSON.parse(await line(page, lines, STATE));
  assert.deepEqual(errors, []);
  assert.equal(state.error, null);
  assert.equal(state.position, native.name);
  assert.equal(state.algo, "pns");
  assert.equal(state.params.tie, "leftmost");
  assert.equal(state.iteration, 1);
  assert.equal(state.status, "paused");
  const file = await shoot(page, "lesson-02-step-1");
  t.diagnostic(`screenshot: ${path.relative(root, file)}`);
  const bad = await open("?lesson=99-no-such-lesson");
  const s2 = JSON.parse(await line(bad.page, bad.lines, STATE));
  assert.match(s2.error, /lesson=99-no-such-lesson: no bundled lesson.*02-pns-step-by-step/);
  await page.close();
  await bad.page.close();
});

test("a bad link is explained in the page, which still opens", async () => {
  const { page, lines, errors } = await open("?open=trees/no-such.tree&algo=pns&autoplay=3");
  const state = JSON.parse(await line(page, lines, STATE));
  assert.deepEqual(errors, []);
  assert.match(state.error, /trees\/no-such\.tree: no bundled file/);
  assert.equal(state.iteration, 0);
  const typo = await open("?open=trees/seesaw.tree&autplay=3");
  const s2 = JSON.parse(await line(typo.page, typo.lines, STATE));
  assert.match(s2.error, /parameter 2 \(`autplay=3`\).*one of the keys/);
  await page.close();
  await typo.page.close();
});

test("a file dropped on the page opens", async () => {
  const { page, lines, errors } = await open("");
  await line(page, lines, FIRST_FRAME);
  const text = 'tree "Dropped here"\nA or\n  B = loss\n  C = win\n';
  const dt = await page.evaluateHandle((t) => {
    const d = new DataTransfer();
    d.items.add(new File([t], "mine.tree", { type: "text/plain" }));
    return d;
  }, text);
  await page.dispatchEvent("#pnlab_canvas", "dragenter", { dataTransfer: dt });
  await page.dispatchEvent("#pnlab_canvas", "dragover", { dataTransfer: dt });
  await page.dispatchEvent("#pnlab_canvas", "drop", { dataTransfer: dt });
  await page.waitForFunction(() => document.title.includes("Dropped here"), null, { timeout: WAIT_MS });
  assert.deepEqual(errors, []);
  await page.close();
});

/** Chooses File › Open… and returns the browser's file chooser. */
async function fileOpen(page) {
  await page.mouse.click(19, 12);
  await page.waitForTimeout(600);
  await page.mouse.move(40, 38); // File › Open…, hovered first
  await page.waitForTimeout(300);
  const [chooser] = await Promise.all([
    page.waitForEvent("filechooser", { timeout: WAIT_MS }),
    (async () => {
      await page.mouse.down();
      await page.waitForTimeout(100);
      await page.mouse.up();
    })(),
  ]);
  return chooser;
}

test("File › Open… opens the browser's file picker, and the picked file opens", async () => {
  const { page, lines, errors } = await open("");
  await line(page, lines, FIRST_FRAME);
  const chooser = await fileOpen(page);
  await chooser.setFiles({
    name: "picked.tree",
    mimeType: "text/plain",
    buffer: Buffer.from('tree "Picked here"\nA or\n  B = loss\n  C = win\n'),
  });
  await page.waitForFunction(() => document.title.includes("Picked here"), null, { timeout: WAIT_MS });
  // A broken file is reported, and the page keeps its position.
  const again = await fileOpen(page);
  await again.setFiles({
    name: "broken.tree",
    mimeType: "text/plain",
    buffer: Buffer.from('tree "Broken"\nA or\n  B = maybe\n'),
  });
  await page.waitForTimeout(1500);
  assert.match(await page.title(), /Picked here/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("bench.html runs each set bare and driven by the app, to the same iterations", async () => {
  const { page, lines, errors } = await open("bench.html");
  await line(page, lines, "pnlab-bench-done");
  const rows = lines.filter((l) => l.startsWith("pnlab-bench ")).map((l) => JSON.parse(l.slice(12)));
  const bare = rows.filter((r) => !r.driven);
  const driven = rows.filter((r) => r.driven);
  assert.ok(bare.length >= 2, "both sets ran");
  assert.equal(driven.length, bare.length, "each set also ran driven");
  for (const b of bare) {
    const d = driven.find((r) => r.suite === b.suite);
    assert.ok(d, `${b.suite}: a driven row`);
    // The same searches: the app's driving changes their speed, never
    // what they do.
    assert.equal(d.runs, b.runs, `${b.suite}: runs`);
    assert.equal(d.solved, b.solved, `${b.suite}: solved`);
    assert.equal(d.iterations, b.iterations, `${b.suite}: iterations`);
    // For the record (not asserted: speed is measured, not tested).
    console.log(`bench.html ${b.suite}: bare ${b.iterations_per_sec} it/s, driven ${d.iterations_per_sec} it/s (${d.vs_bare}x)`);
  }
  await shoot(page, "bench-page");
  assert.deepEqual(errors, []);
  await page.close();
});
