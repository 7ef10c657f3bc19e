;; The scanner's byte pre-check (precheck.ts): where in memory[at, end) a documented key prefix may end.
;; A key's prefix ends in "-", "_" or the "a" of "AIza", right after a pair of letters no ordinary
;; word puts there often: "sk-", "xai-", "pplx-", "sk_" (of "gsk_"), "hf_", "fw_", "r8_", "tgp_"
;; ("p_"), "AIza" ("Iza"). For each byte, a class of the byte itself and classes of the two bytes
;; before it are looked up sixteen at a time by their low and high halves (the "shufti" technique
;; of Hyperscan); a bit set in all three is one of the eight patterns below. The JavaScript side
;; (precheck.ts, scanner.ts) checks every byte reported again, so a rare stray match costs a call,
;; never a wrong answer: only "/" and "]" after "sk" share a class bit with "-" and "_".
;;
;;   bit  0      1      2      3      4      5      6      7
;;        sk-/_  ai-    lx-    hf_    fw_    r8_    gp_    Iza
;;
;; The tables live in locals: written as constants inside the loop, the engine built each one again
;; for every sixteen bytes (2 GB/s; 7 GB/s from locals).
;;
;; Memory: 273 pages, the 16 MB read room and 1 MB copy room of precheck.ts with their margins; never grown
;; (precheck.ts keeps views of it), its first 16 bytes always zero, so the two
;; bytes before a buffer that starts there read as no letters. Loads reach up to 15 bytes past
;; `end`; the caller leaves room there.
(module
  (memory (export "memory") 273)
  (func (export "next") (param $at i32) (param $end i32) (result i32)
    (local $v v128)
    (local $m v128)
    (local $nibble v128)
    (local $low0 v128)
    (local $high0 v128)
    (local $low1 v128)
    (local $high1 v128)
    (local $low2 v128)
    (local $high2 v128)
    (local $bits i32)
    (local $found i32)
    (local.set $nibble (v128.const i8x16 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15))
    ;; The byte's own class: "-" 0b00000111, "_" 0b01111001, "a" 0b10000000.
    (local.set $low0 (v128.const i8x16 0 0x80 0 0 0 0 0 0 0 0 0 0 0 0x07 0 0x79))
    (local.set $high0 (v128.const i8x16 0 0 0x07 0 0 0x79 0x80 0 0 0 0 0 0 0 0 0))
    ;; The byte before: "k" 1, "i" 2, "x" 4, "f" 8, "w" 16, "8" 32, "p" 64, "z" 128.
    (local.set $low1 (v128.const i8x16 0x40 0 0 0 0 0 0x08 0x10 0x24 0x02 0x80 0x01 0 0 0 0))
    (local.set $high1 (v128.const i8x16 0 0 0 0x20 0 0 0x0b 0xd4 0 0 0 0 0 0 0 0))
    ;; Two bytes before: "s" 1, "a" 2, "l" 4, "h" 8, "f" 16, "r" 32, "g" 64, "I" 128.
    (local.set $low2 (v128.const i8x16 0 0x02 0x20 0x01 0 0 0x10 0x40 0x08 0x80 0 0 0x04 0 0 0))
    (local.set $high2 (v128.const i8x16 0 0 0 0 0x80 0 0x5e 0x21 0 0 0 0 0 0 0 0))
    (block $none
      (loop $blocks
        (br_if $none (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $v (v128.load (local.get $at)))
        (local.set $m
          (v128.and
            (i8x16.swizzle (local.get $low0) (v128.and (local.get $v) (local.get $nibble)))
            (i8x16.swizzle (local.get $high0)
              (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))))
        (local.set $v (v128.load (i32.sub (local.get $at) (i32.const 1))))
        (local.set $m
          (v128.and (local.get $m)
            (v128.and
              (i8x16.swizzle (local.get $low1) (v128.and (local.get $v) (local.get $nibble)))
              (i8x16.swizzle (local.get $high1)
                (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble))))))
        (local.set $v (v128.load (i32.sub (local.get $at) (i32.const 2))))
        (local.set $m
          (v128.and (local.get $m)
            (v128.and
              (i8x16.swizzle (local.get $low2) (v128.and (local.get $v) (local.get $nibble)))
              (i8x16.swizzle (local.get $high2)
                (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble))))))
        (if (v128.any_true (local.get $m))
          (then
            ;; A lane is set where any bit survived: compare with zero, then the lowest such lane.
            (local.set $bits (i8x16.bitmask (i8x16.ne (local.get $m) (v128.const i64x2 0 0))))
            (local.set $found (i32.add (local.get $at) (i32.ctz (local.get $bits))))
            (br_if $none (i32.ge_u (local.get $found) (local.get $end)))
            (return (local.get $found))))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $blocks)))
    (i32.const -1))

  ;; How many "\n" bytes memory[at, end) holds, for the line numbers of a file scanned in windows: sixteen
  ;; bytes compared a step, each lane's count kept in its byte (a match subtracts -1) and summed every 255
  ;; steps, before a byte could wrap; the last bytes, fewer than sixteen, one at a time. Nothing past `end` is read.
  (func (export "newlines") (param $at i32) (param $end i32) (result i32)
    (local $count i32)
    (local $lanes v128)
    (local $newline v128)
    (local $steps i32)
    (local.set $newline (v128.const i8x16 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10))
    (block $whole
      (loop $rounds
        (br_if $whole (i32.gt_u (i32.add (local.get $at) (i32.const 16)) (local.get $end)))
        (local.set $lanes (v128.const i64x2 0 0))
        (local.set $steps (i32.const 255))
        (block $sum
          (loop $steps
            (br_if $sum (i32.eqz (local.get $steps)))
            (br_if $sum (i32.gt_u (i32.add (local.get $at) (i32.const 16)) (local.get $end)))
            (local.set $lanes
              (i8x16.sub (local.get $lanes) (i8x16.eq (v128.load (local.get $at)) (local.get $newline))))
            (local.set $at (i32.add (local.get $at) (i32.const 16)))
            (local.set $steps (i32.sub (local.get $steps) (i32.const 1)))
            (br $steps)))
        (local.set $lanes (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $lanes))))
        (local.set $count
          (i32.add (local.get $count)
            (i32.add
              (i32.add (i32x4.extract_lane 0 (local.get $lanes)) (i32x4.extract_lane 1 (local.get $lanes)))
              (i32.add (i32x4.extract_lane 2 (local.get $lanes)) (i32x4.extract_lane 3 (local.get $lanes))))))
        (br $rounds)))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (if (i32.eq (i32.load8_u (local.get $at)) (i32.const 10))
          (then (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $bytes)))
    (local.get $count))
)
