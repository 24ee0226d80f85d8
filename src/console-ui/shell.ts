// The one HTML document every /console path answers with: the page frame (header, navigation,
// main landmark) is here so it paints before the script runs and never moves when it does;
// client/main.ts fills <main> for the path. Sizes are fixed in app.css (no layout shift).
import type { Bundle } from './build.ts'

export const NAV: [path: string, label: string][] = [
  ['/console', 'Overview'],
  ['/console/keys', 'API keys'],
  ['/console/topup', 'Top up'],
  ['/console/transactions', 'Transactions'],
  ['/console/logs', 'Request logs'],
  ['/console/models', 'Models'],
]

/** Shown only to admins (body.is-admin, client/session.ts): the operator pages, docs/operators.md. */
export const ADMIN_NAV: [path: string, label: string] = ['/console/admin', 'Operator']

export function shellHtml(bundle: Bundle): string {
  const links = `${NAV.map(([href, label]) => `<li><a href="${href}">${label}</a></li>`).join('')}<li class="admin-only"><a href="${ADMIN_NAV[0]}">${ADMIN_NAV[1]}</a></li>`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>Tollgate console</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<link rel="stylesheet" href="${bundle.style.path}">
<script type="module" src="${bundle.script.path}"></script>
</head>
<body class="signed-out">
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/console">Tollgate</a>
<nav aria-label="Console"><ul>${links}</ul></nav>
<div class="who"><span id="who-email"></span><button type="button" id="sign-out" class="link">Sign out</button></div>
<a class="guest" href="/console/signin">Sign in</a>
</header>
<main id="main" tabindex="-1"><p class="loading">Loading…</p><noscript><p>The console needs JavaScript. The API it uses is documented at <a href="/api/openapi">/api/openapi</a>.</p></noscript></main>
</body>
</html>`
}
