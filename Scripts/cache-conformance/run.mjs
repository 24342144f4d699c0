// Runs the HTTP cache conformance suite (http-tests/cache-tests) in its browser mode (the tests
// that apply to a private cache) against a base URL, and scores the results the way the suite's
// own results page does (a test passes only when it and every test it depends on pass).
//
// node run.mjs <suite checkout> <base URL> <results file>
//
// A request's Fetch `cache` mode ('no-cache', 'reload', ...) reaches the proxy as the header
// FetchKit-Cache-Mode, which the proxy turns into the request's CachePolicy.

import fs from 'fs'
import path from 'path'
import { pathToFileURL } from 'url'

const [suite, base, out] = process.argv.slice(2)
const load = file => import(pathToFileURL(path.join(suite, file)).href)
const { runTests, getResults } = await load('test-engine/client/runner.mjs')
const { determineTestResult } = await load('test-engine/lib/results.mjs')
const tests = (await load('tests/index.mjs')).default

const fetchWithCache = globalThis.fetch
globalThis.fetch = (url, init = {}) => {
  if (init.cache !== undefined) {
    init.headers = (init.headers || []).concat([['FetchKit-Cache-Mode', init.cache]])
    delete init.cache
  }
  delete init.mode
  delete init.credentials
  return fetchWithCache(url, init)
}

await runTests(tests, true, base)
const results = getResults()
fs.writeFileSync(out, JSON.stringify(results, null, 2))

const score = { required: [0, 0], optimal: [0, 0], check: [0, 0] }
const failures = []
for (const group of tests) {
  for (const test of group.tests) {
    if (test.cdn_only === true || test.browser_skip === true) continue
    const kind = test.kind || 'required'
    const outcome = determineTestResult(tests, test.id, results)
    score[kind][1]++
    if (outcome[2] === '✅' || outcome[2] === 'Y') {
      score[kind][0]++
    } else if (kind !== 'check') {
      const detail = Array.isArray(results[test.id]) ? results[test.id].join(': ') : outcome[2]
      failures.push(`${kind.padEnd(8)} ${outcome[2]} ${test.id}  ${detail}`)
    }
  }
}
for (const line of failures.sort()) console.log(line)
console.log(`required ${score.required[0]}/${score.required[1]}, optimal ${score.optimal[0]}/${score.optimal[1]}, check yes ${score.check[0]}/${score.check[1]}`)
