// GET /favicon.ico (docs/console-ui.md): the console's icon, a small SVG — browsers ask for this
// path on every page, and take SVG from it when the page's <link rel="icon"> names the type.
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#1f4e79"/>
<path d="M7 24V12h18v12" fill="none" stroke="#fff" stroke-width="3"/>
<path d="M5 12h22" stroke="#f2b134" stroke-width="4"/>
</svg>
`

export const faviconResponse = () =>
  new Response(SVG, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' } })
