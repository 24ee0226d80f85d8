// The kernel receive buffer of an upstream stream socket, set small so that one read is small.
// Bun reads up to 512 KiB from a socket at once and Bun.connect has no option to read less; a
// stream whose client stopped reading keeps the rest of that read in memory (byte-queue.ts). With
// SO_RCVBUF set, the kernel holds less and TCP pushes back on the upstream sooner, so a stalled
// stream holds about that much (docs/drain.md "Memory"). It is set on a fresh connection before
// its first request is sent, so nothing is in flight, and no lower than Linux's default initial
// buffer (tcp_rmem's 128 KiB once doubled): a window already offered to the peer never shrinks,
// and a buffer below it makes the kernel drop what the peer may send. Linux only (glibc's
// setsockopt through bun:ffi); elsewhere, or if libc cannot be loaded, sockets keep the default.
import { dlopen, ptr } from 'bun:ffi'

const SOL_SOCKET = 1
const SO_RCVBUF = 8

type SetSockOpt = (fd: number, level: number, name: number, value: ReturnType<typeof ptr>, length: number) => number

let setsockopt: SetSockOpt | null | undefined

function load(): SetSockOpt | null {
  if (process.platform !== 'linux') return null
  try {
    const lib = dlopen('libc.so.6', { setsockopt: { args: ['i32', 'i32', 'i32', 'ptr', 'u32'], returns: 'i32' } })
    return lib.symbols.setsockopt as SetSockOpt
  } catch {
    return null
  }
}

/** Asks the kernel to buffer at most about `bytes` (Linux doubles it for bookkeeping) on socket `fd`. True if it took. */
export function limitReceiveBuffer(fd: number, bytes: number): boolean {
  if (setsockopt === undefined) setsockopt = load()
  if (setsockopt === null || fd < 0) return false
  return setsockopt(fd, SOL_SOCKET, SO_RCVBUF, ptr(new Int32Array([bytes])), 4) === 0
}
