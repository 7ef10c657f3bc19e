;; The checksum of a code cache file's V8 data (codeCache.ts). V8 does not check a code cache's contents in a release
;; build (its checksum is verified only in debug builds) and a damaged one ends the process in a fatal error, so
;; the launcher checks the bytes itself before V8 reads them. In JavaScript (or node:zlib's crc32, once loaded) the
;; 220 KB took 2-3 ms of a 31 ms start; here well under a tenth of a millisecond. It guards against damage, not
;; against an adversary: who could write the file could write a matching sum (codeCache.ts keeps others out).
;;
;; FNV-1a over 64-bit words, then over the last bytes one by one: each step is a bijection of the sum for a given
;; word, so any one changed word changes the result.
(module
  (memory (export "memory") 1)
  ;; The sum of the `length` bytes at `at`.
  (func (export "sum") (param $at i32) (param $length i32) (result i64)
    (local $end i32)
    (local $words i32)
    (local $sum i64)
    (local.set $sum (i64.xor (i64.const 0xcbf29ce484222325) (i64.extend_i32_u (local.get $length))))
    (local.set $end (i32.add (local.get $at) (local.get $length)))
    (local.set $words (i32.add (local.get $at) (i32.and (local.get $length) (i32.const -8))))
    (block $done
      (loop $word
        (br_if $done (i32.ge_u (local.get $at) (local.get $words)))
        (local.set $sum
          (i64.mul (i64.xor (local.get $sum) (i64.load (local.get $at))) (i64.const 0x100000001b3)))
        (local.set $at (i32.add (local.get $at) (i32.const 8)))
        (br $word)))
    (block $tail
      (loop $byte
        (br_if $tail (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $sum
          (i64.mul (i64.xor (local.get $sum) (i64.load8_u (local.get $at))) (i64.const 0x100000001b3)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $byte)))
    (local.get $sum)))
