// A live class in real browsers: `pnlab serve` serves web/dist; one
// teacher page (the projector, 1024×768) starts a class on a bundled
// lesson and three student pages (phones, 390×844) join it with the
// code. The students tap nodes of the tree (one changes their mind); the
// teacher's page shows their answers as counts; Enter on the teacher's
// page reveals, and each student's page shows its own verdict, checked
// against the desktop's answer key (`pnlab lesson FILE --answers`).
//
//   scripts/web.sh && cargo build && cd tests/web && npm ci && node --test live.test.mjs
//
// Environment: CHROMIUM, PNLAB_BIN, WEB_SCREENSHOTS as in page.test.mjs.

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
const LIVE = "pnlab-live ";
const LESSON = "02-pns-step-by-step";
// Generous: four software-WebGL pages on a loaded 2-core machine. Nothing
// here depends on how fast.
const WAIT_MS = 300_000;

let server;
let base;
let browser;

before(async () => {
  assert.ok(fs.existsSync(path.join(root, "web/dist/index.html")), "run scripts/web.sh first");
  ({ server, base } = await startServer(bin, ["serve", "--dist", path.join(root, "web/dist"), "--port", "0"], root));
  // Four pages draw at once; none may be throttled in the background.
  browser = await launchChromium([
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
  ]);
  fs.mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.kill("SIGINT");
});

/** A page at `query`; `state()` is its last live-class line. */
async function open(query, viewport) {
  const page = await browser.newPage({ viewport });
  const lives = [];
  const errors = [];
  // The console's errors and warnings (a panic's message among them), to
  // say what went wrong when a wait times out.
  const said = [];
  page.on("console", (m) => {
    const t = m.text();
    if (t.startsWith(LIVE)) lives.push(JSON.parse(t.slice(LIVE.length)));
    else if (m.type() === "error" || m.type() === "warning") said.push(`${m.type()}: ${t}`);
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("crash", () => errors.push("the page crashed"));
  await page.goto(base + query);
  return { page, errors, said, state: () => lives[lives.length - 1] };
}

/** Waits until `ok(state)` holds for the page's live state. */
async function until(p, what, ok) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const s = p.state();
    if (s && ok(s)) return s;
    if (Date.now() > deadline) {
      const console = [...p.errors, ...p.said.slice(-5)].join(" | ") || "nothing";
      throw new Error(`timed out waiting for ${what}; last state ${JSON.stringify(s)}; the page said: ${console}`);
    }
    await p.page.waitForTimeout(100);
  }
}

/** A page's step is ready to answer: open question, the step's tree drawn. */
const ready = (step) => (s) =>
  s.step === step && s.open && s.question && s.iteration === s.step_iteration && s.nodes.length >= 3;

/** Taps the node at `path` on a student's page. */
async function tap(p, nodePath) {
  const n = p.state().nodes.find((x) => JSON.stringify(x.path) === JSON.stringify(nodePath));
  assert.ok(n, `node ${nodePath} is drawn`);
  await p.page.mouse.click(n.x, n.y);
}

async function shoot(page, name) {
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file });
  const { width, height } = page.viewportSize();
  execFileSync("python3", [path.join(root, "scripts/png_not_blank.py"), file, "--min", `${width}x${height}`], {
    stdio: "inherit",
  });
}

/** The desktop's answer to the lesson's first question: the node's moves. */
function desktopAnswer() {
  const out = execFileSync(bin, ["lesson", `lessons/${LESSON}.lesson.toml`, "--answers"], { cwd: root }).toString();
  const line = out.split("\n").find((l) => l.trim().startsWith("A: "));
  const text = line.trim().slice(3);
  if (text === "the root") return [];
  const m = /^(?:the )?node (.+)$/.exec(text);
  assert.ok(m, `an answer naming a node: ${text}`);
  return m[1].trim().split(/\s+/);
}

test("a question played by a teacher and three students", async () => {
  const answer = desktopAnswer();
  const teacher = await open(`?teach=${LESSON}`, { width: 1024, height: 768 });
  const t0 = await until(teacher, "the room", (s) => s.code && s.step === 0);
  const code = t0.code;
  assert.match(code, /^[A-Z0-9]{4,12}$/);

  const phone = { width: 390, height: 844 };
  const students = [];
  for (let i = 0; i < 3; i++) students.push(await open(`?join=${code}`, phone));
  for (const s of students) await until(s, "the student's step", ready(0));
  await until(teacher, "three students", (s) => s.joined === 3);

  // Three different picks: the engine's answer, and two others (the
  // first student first taps a wrong node, then changes to the right one).
  const others = students[0].state().nodes.map((n) => n.path).filter((p) => JSON.stringify(p) !== JSON.stringify(answer));
  assert.ok(others.length >= 2, "the tree offers wrong nodes too");
  const picks = [answer, others[0], others[1]];
  await tap(students[0], others[1]);
  await until(students[0], "the first answer taken", (s) => JSON.stringify(s.my_answer) === JSON.stringify({ node: others[1] }));
  for (let i = 0; i < 3; i++) await tap(students[i], picks[i]);
  for (let i = 0; i < 3; i++) {
    await until(students[i], `student ${i}'s answer`, (s) => JSON.stringify(s.my_answer) === JSON.stringify({ node: picks[i] }));
  }
  // The projector counts each node once per student: the changed answer
  // moved, it was not added.
  const tallied = await until(teacher, "the tally", (s) => s.answered === 3 && s.tally && s.tally.answered === 3);
  const counts = Object.fromEntries(tallied.tally.nodes.map((n) => [JSON.stringify(n.path), n.count]));
  for (const p of picks) assert.equal(counts[JSON.stringify(p)], 1, `one pick of ${p}`);
  await until(teacher, "the counts on the tree", (s) => s.badges === 3);
  await shoot(teacher.page, "live-projector-histogram");

  // Reveal (Enter on the projector): every device shows its own verdict.
  await teacher.page.mouse.move(512, 700);
  await teacher.page.keyboard.press("Enter");
  const verdicts = [];
  for (const s of students) verdicts.push((await until(s, "the verdict", (x) => x.verdict)).verdict);
  assert.deepEqual(verdicts.map((v) => v.correct), [true, false, false]);
  assert.match(verdicts[0].headline, /^Right/);
  const shared = await until(teacher, "the share right", (s) => s.share);
  assert.deepEqual(shared.share, { answered: 3, right: 1 });
  await shoot(students[1].page, "live-student-phone-verdict");
  await shoot(teacher.page, "live-projector-revealed");

  // The teacher moves on; every student follows (→ on the projector).
  await teacher.page.keyboard.press("ArrowRight");
  for (const s of students) await until(s, "step 2 on the student's page", (x) => x.step === 1 && x.verdict === null);

  // A late joiner lands on the current step.
  const late = await open(`?join=${code}`, phone);
  await until(late, "the late joiner's step", (s) => s.step === 1);
  await until(teacher, "four students", (s) => s.joined === 4);

  for (const p of [teacher, ...students, late]) assert.deepEqual(p.errors, []);
});
