;; SHA-256 (FIPS 180-4: padding 5.1.1, initial state 5.3.3, compression 6.2.2) for the CLI's fingerprints (sha256.ts). A scan hashes a
;; few hundred keys once each: in JavaScript the 64 rounds ran in the interpreter for most of them, a quarter of
;; scanning the bench's files with keys; WebAssembly runs at compiled speed from the first key.
;;
;; Memory (one page): the 64 round constants K at 0 (sha256.ts writes them once), the state H at 256 (eight
;; words), the digest at 320 (32 bytes), the message schedule W at 512 (64 words), the message from 1024 to the
;; page's end. Words are i32 in the memory's own (little-endian) order; the message's bytes and the digest are
;; big-endian, as the standard has them. A hash is one call: the caller writes the message's bytes at 1024 and
;; reads the digest's 32 bytes, so no loop over characters or digits runs in JavaScript.
(module
  (memory (export "memory") 1)
  ;; The SHA-256 of the `length` bytes at 1024 (at most 64,503, so that the padding fits the page), written at 320.
  (func (export "hash") (param $length i32)
    (local $end i32)
    (local $i i32)
    (local $word i32)
    ;; The padding (5.1.1): a 1 bit, zeros, the length in bits as 64 bits big-endian, to a whole block.
    (local.set $end
      (i32.add (i32.const 1024)
        (i32.and (i32.add (local.get $length) (i32.const 72)) (i32.const -64))))
    (i32.store8 offset=1024 (local.get $length) (i32.const 0x80))
    (local.set $i (i32.add (i32.const 1025) (local.get $length)))
    (block $zeroed
      (loop $zeros
        (br_if $zeroed (i32.ge_u (local.get $i) (i32.sub (local.get $end) (i32.const 4))))
        (i32.store8 (local.get $i) (i32.const 0))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $zeros)))
    (local.set $word (i32.shl (local.get $length) (i32.const 3)))
    (i32.store8 (i32.sub (local.get $end) (i32.const 4)) (i32.shr_u (local.get $word) (i32.const 24)))
    (i32.store8 (i32.sub (local.get $end) (i32.const 3)) (i32.shr_u (local.get $word) (i32.const 16)))
    (i32.store8 (i32.sub (local.get $end) (i32.const 2)) (i32.shr_u (local.get $word) (i32.const 8)))
    (i32.store8 (i32.sub (local.get $end) (i32.const 1)) (local.get $word))
    ;; H(0) (5.3.3): the first 32 bits of the fractional parts of the square roots of the first eight primes.
    (i32.store offset=256 (i32.const 0) (i32.const 0x6a09e667))
    (i32.store offset=260 (i32.const 0) (i32.const 0xbb67ae85))
    (i32.store offset=264 (i32.const 0) (i32.const 0x3c6ef372))
    (i32.store offset=268 (i32.const 0) (i32.const 0xa54ff53a))
    (i32.store offset=272 (i32.const 0) (i32.const 0x510e527f))
    (i32.store offset=276 (i32.const 0) (i32.const 0x9b05688c))
    (i32.store offset=280 (i32.const 0) (i32.const 0x1f83d9ab))
    (i32.store offset=284 (i32.const 0) (i32.const 0x5be0cd19))
    (call $compress (i32.const 1024) (local.get $end))
    ;; The digest: H's words big-endian.
    (local.set $i (i32.const 0))
    (loop $digest
      (local.set $word (i32.load offset=256 (local.get $i)))
      (i32.store8 offset=320 (local.get $i) (i32.shr_u (local.get $word) (i32.const 24)))
      (i32.store8 offset=321 (local.get $i) (i32.shr_u (local.get $word) (i32.const 16)))
      (i32.store8 offset=322 (local.get $i) (i32.shr_u (local.get $word) (i32.const 8)))
      (i32.store8 offset=323 (local.get $i) (local.get $word))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br_if $digest (i32.lt_u (local.get $i) (i32.const 32)))))

  ;; Compresses the 64-byte blocks in memory[at, end) into H.
  (func $compress (param $at i32) (param $end i32)
    (local $i i32)
    (local $p i32)
    (local $w15 i32)
    (local $w2 i32)
    (local $a i32)
    (local $b i32)
    (local $c i32)
    (local $d i32)
    (local $e i32)
    (local $f i32)
    (local $g i32)
    (local $h i32)
    (local $t1 i32)
    (local $t2 i32)
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        ;; W[0..15]: the block's words, big-endian.
        (local.set $i (i32.const 0))
        (loop $load
          (local.set $p (i32.add (local.get $at) (i32.shl (local.get $i) (i32.const 2))))
          (i32.store offset=512 (i32.shl (local.get $i) (i32.const 2))
            (i32.or
              (i32.or
                (i32.shl (i32.load8_u (local.get $p)) (i32.const 24))
                (i32.shl (i32.load8_u offset=1 (local.get $p)) (i32.const 16)))
              (i32.or
                (i32.shl (i32.load8_u offset=2 (local.get $p)) (i32.const 8))
                (i32.load8_u offset=3 (local.get $p)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $load (i32.lt_u (local.get $i) (i32.const 16))))
        ;; W[16..63] = W[i-16] + s0(W[i-15]) + W[i-7] + s1(W[i-2]); $p is 4i, so W[i-k] is at 512 - 4k + $p.
        (loop $extend
          (local.set $p (i32.shl (local.get $i) (i32.const 2)))
          (local.set $w15 (i32.load offset=452 (local.get $p)))
          (local.set $w2 (i32.load offset=504 (local.get $p)))
          (i32.store offset=512 (local.get $p)
            (i32.add
              (i32.add
                (i32.load offset=448 (local.get $p))
                (i32.xor
                  (i32.xor (i32.rotr (local.get $w15) (i32.const 7)) (i32.rotr (local.get $w15) (i32.const 18)))
                  (i32.shr_u (local.get $w15) (i32.const 3))))
              (i32.add
                (i32.load offset=484 (local.get $p))
                (i32.xor
                  (i32.xor (i32.rotr (local.get $w2) (i32.const 17)) (i32.rotr (local.get $w2) (i32.const 19)))
                  (i32.shr_u (local.get $w2) (i32.const 10))))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $extend (i32.lt_u (local.get $i) (i32.const 64))))
        (local.set $a (i32.load offset=256 (i32.const 0)))
        (local.set $b (i32.load offset=260 (i32.const 0)))
        (local.set $c (i32.load offset=264 (i32.const 0)))
        (local.set $d (i32.load offset=268 (i32.const 0)))
        (local.set $e (i32.load offset=272 (i32.const 0)))
        (local.set $f (i32.load offset=276 (i32.const 0)))
        (local.set $g (i32.load offset=280 (i32.const 0)))
        (local.set $h (i32.load offset=284 (i32.const 0)))
        (local.set $i (i32.const 0))
        (loop $rounds
          (local.set $p (i32.shl (local.get $i) (i32.const 2)))
          ;; T1 = h + S1(e) + Ch(e, f, g) + K[i] + W[i]
          (local.set $t1
            (i32.add
              (i32.add
                (local.get $h)
                (i32.xor
                  (i32.xor (i32.rotr (local.get $e) (i32.const 6)) (i32.rotr (local.get $e) (i32.const 11)))
                  (i32.rotr (local.get $e) (i32.const 25))))
              (i32.add
                (i32.xor
                  (i32.and (local.get $e) (local.get $f))
                  (i32.and (i32.xor (local.get $e) (i32.const -1)) (local.get $g)))
                (i32.add (i32.load (local.get $p)) (i32.load offset=512 (local.get $p))))))
          ;; T2 = S0(a) + Maj(a, b, c)
          (local.set $t2
            (i32.add
              (i32.xor
                (i32.xor (i32.rotr (local.get $a) (i32.const 2)) (i32.rotr (local.get $a) (i32.const 13)))
                (i32.rotr (local.get $a) (i32.const 22)))
              (i32.xor
                (i32.xor (i32.and (local.get $a) (local.get $b)) (i32.and (local.get $a) (local.get $c)))
                (i32.and (local.get $b) (local.get $c)))))
          (local.set $h (local.get $g))
          (local.set $g (local.get $f))
          (local.set $f (local.get $e))
          (local.set $e (i32.add (local.get $d) (local.get $t1)))
          (local.set $d (local.get $c))
          (local.set $c (local.get $b))
          (local.set $b (local.get $a))
          (local.set $a (i32.add (local.get $t1) (local.get $t2)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $rounds (i32.lt_u (local.get $i) (i32.const 64))))
        (i32.store offset=256 (i32.const 0) (i32.add (i32.load offset=256 (i32.const 0)) (local.get $a)))
        (i32.store offset=260 (i32.const 0) (i32.add (i32.load offset=260 (i32.const 0)) (local.get $b)))
        (i32.store offset=264 (i32.const 0) (i32.add (i32.load offset=264 (i32.const 0)) (local.get $c)))
        (i32.store offset=268 (i32.const 0) (i32.add (i32.load offset=268 (i32.const 0)) (local.get $d)))
        (i32.store offset=272 (i32.const 0) (i32.add (i32.load offset=272 (i32.const 0)) (local.get $e)))
        (i32.store offset=276 (i32.const 0) (i32.add (i32.load offset=276 (i32.const 0)) (local.get $f)))
        (i32.store offset=280 (i32.const 0) (i32.add (i32.load offset=280 (i32.const 0)) (local.get $g)))
        (i32.store offset=284 (i32.const 0) (i32.add (i32.load offset=284 (i32.const 0)) (local.get $h)))
        (local.set $at (i32.add (local.get $at) (i32.const 64)))
        (br $blocks))))
)
