// Who is signed in, as /api/auth/me says; the header shows it and hides the navigation when
// nobody is (visibility only, so the header keeps its size), and links the operator pages for an admin.
import { api } from './api.ts'

export interface Me {
  id: string
  email: string
  /** `admin` sees the operator pages (docs/operators.md "Admins"). */
  role?: 'user' | 'admin'
}

let me: Me | null | undefined

export async function currentUser(): Promise<Me | null> {
  if (me !== undefined) return me
  me = await api<Me>('/api/auth/me').catch(() => null)
  show(me)
  return me
}

export function setUser(user: Me | null) {
  me = user
  show(user)
}

function show(user: Me | null) {
  document.body.classList.toggle('signed-out', !user)
  document.body.classList.toggle('is-admin', user?.role === 'admin')
  document.getElementById('who-email')!.textContent = user?.email ?? ''
}
