// A QBP bot in Node.js, written from docs/bots.md: it asks `python -m qwirkle_tools moves` for the
// best-scoring move (node PYTHON). Node reserves much address space as it starts: the tests play it
// under a small --bot-memory, which limits what a bot allocates, not what it reserves.
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const readline = require("readline");

const python = process.argv[2] || "python3";
let position = null;
let rack = [];

function best() {
  if (position === null) return "pass";
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "nodebot-")), "position.json");
  fs.writeFileSync(file, JSON.stringify(position));
  try {
    const out = execFileSync(python, ["-m", "qwirkle_tools", "moves", file, "--turn", String(position.turns.length + 1),
      "--rack", rack.join(" "), "--limit", "1", "--format", "json"], { encoding: "utf8" });
    const moves = JSON.parse(out).moves;
    if (moves.length > 0) return moves[0].tiles.map((t) => `${t.tile}@${t.x},${t.y}`).join(" ");
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
  // no placement: exchange what the bag allows (while it has tiles every rack is full), else pass
  const placed = position.turns.filter((t) => t.action === "place").reduce((n, t) => n + t.tiles.length, 0);
  const bag = 108 - placed - 6 * position.players.length;
  return bag > 0 ? "exchange " + rack.slice(0, bag).join(" ") : "pass";
}

const say = (line) => process.stdout.write(line + "\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const [command, ...rest] = line.trim().split(" ");
  const text = line.trim().slice(command.length + 1);
  if (command === "qbp") { say("id name node-moves-bot"); say("qbpok"); }
  else if (command === "isready") say("readyok");
  else if (command === "position") position = JSON.parse(text);
  else if (command === "rack") rack = rest;
  else if (command === "go") say("bestmove " + best());
  else if (command === "quit") process.exit(0);
});
