/* The site's search puts the guides first.
 *
 * Sphinx's searchtools.js ranks a result by where a word is found (an object's name, a title, the
 * text), whatever the page: a search for "standings" listed six functions and classes of the API
 * before the club player's guide. This file defines the Scorer that searchtools.js uses when one is
 * defined before it (docs/conf.py loads this file on every page, before that script). A result's page
 * sets its tier, and Sphinx's own score orders the results within a tier:
 *
 *   2: the guides, the formats and how it works (every page outside the two below);
 *   1: the CLI reference (cli), each command's help;
 *   0: the API reference (api/...), its pages and every object documented on them.
 *
 * A query that reads as code (a dot, an underscore, a bracket or a CamelCase name, as in
 * qwirkle_tools.core.board.Board) is left as Sphinx scores it: that reader is looking for the API.
 */
"use strict";

var Scorer = {
  // Sphinx 8.1's own weights (searchtools.js), unchanged.
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,

  // More than any score Sphinx gives a result (at most about 30), so a tier always comes first.
  tierStep: 1000,

  tier: (docname) => {
    if (docname.startsWith("api/")) return 0;
    if (docname === "cli") return 1;
    return 2;
  },

  looksLikeCode: (query) => /[._()[\]]|[a-z][A-Z]/.test(query),

  // result: [docname, title, anchor, descr, score, filename, kind]
  score: (result) => {
    const [docname, , , , score] = result;
    const query = new URLSearchParams(window.location.search).get("q") || "";
    if (Scorer.looksLikeCode(query)) return score;
    return Scorer.tier(docname) * Scorer.tierStep + score;
  },
};
