// The first-run hint: how to call the API with a key, with curl and the openai SDK (Python and
// JavaScript), against this server's /v1 and a model from its catalog.
import { api } from '../api.ts'
import { h } from '../dom.ts'
import type { Model } from '../types.ts'
import { codeBlock } from '../ui.ts'

export async function firstRunHint(key: string): Promise<HTMLElement> {
  const models = await api<{ items: Model[] }>('/api/public/models?pageSize=1').catch(() => ({ items: [] as Model[] }))
  const model = models.items[0]?.id ?? 'MODEL_ID'
  const base = `${location.origin}/v1`
  const curl = `curl ${base}/chat/completions \\
  -H "Authorization: Bearer ${key}" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello!"}]}'`
  const python = `from openai import OpenAI

client = OpenAI(base_url="${base}", api_key="${key}")
reply = client.chat.completions.create(
    model="${model}",
    messages=[{"role": "user", "content": "Hello!"}],
)
print(reply.choices[0].message.content)`
  const js = `import OpenAI from 'openai'

const client = new OpenAI({ baseURL: '${base}', apiKey: '${key}' })
const reply = await client.chat.completions.create({
  model: '${model}',
  messages: [{ role: 'user', content: 'Hello!' }],
})
console.log(reply.choices[0].message.content)`
  return h(
    'section',
    { class: 'card hint', 'aria-labelledby': 'call-it' },
    h('h2', { id: 'call-it' }, 'Call the API with this key'),
    h(
      'p',
      null,
      'Any OpenAI-compatible client works: point it at ',
      h('code', null, base),
      '. Anthropic clients can use ',
      h('code', null, `${location.origin}/v1/messages`),
      '.',
    ),
    codeBlock('curl', curl),
    codeBlock('Python (openai)', python),
    codeBlock('JavaScript (openai)', js),
    h('p', null, 'See every model and its price on the ', h('a', { href: '/console/models' }, 'Models'), ' page.'),
  )
}
