;; The trace scanner's pass over plain lines (src/node/plain-lines.ts), 32 bytes a step.
;; Built into plain-lines-wasm.ts by `npm run wasm`; a test checks the two agree.
;;
;; Memory: bytes 0-255 are a table of the bytes a line may end with and still open a value spread
;; over lines (MAY_OPEN_AT_END in src/core/traces/scan-text.ts): 2 for a quote, 1 for the others.
;; The text starts at 256 and is followed by 48 zero bytes, so that loads past its end read no
;; old text.
;;
;; skip(from, end, max) passes over the lines from `from` that the scanner would only count (the
;; rule of PlainLines in src/core/traces/scan.ts). It returns where the first other line starts
;; (or `end`) and leaves how many lines it passed in the global `lines`.
(module
  (memory (export "memory") 1)
  (global $lines (export "lines") (mut i32) (i32.const 0))
  (global $start (mut i32) (i32.const 0))
  (global $max (mut i32) (i32.const 0))

  ;; True when the line ending at the LF at `q` may not be passed over.
  (func $stopsAt (param $q i32) (result i32)
    (local $last i32) (local $kind i32) (local $i i32)
    (local.set $last (i32.sub (local.get $q) (i32.const 1)))
    ;; A CR before the LF is part of the line end, not of the line.
    (if (i32.and
          (i32.ge_s (local.get $last) (global.get $start))
          (i32.eq (i32.load8_u (local.get $last)) (i32.const 13)))
      (then (local.set $last (i32.sub (local.get $last) (i32.const 1)))))
    (if (i32.gt_s (i32.sub (i32.add (local.get $last) (i32.const 1)) (global.get $start))
                  (global.get $max))
      (then (return (i32.const 1))))
    (if (i32.lt_s (local.get $last) (global.get $start)) (then (return (i32.const 0))))
    (local.set $kind (i32.load8_u (i32.load8_u (local.get $last))))
    (if (i32.ne (local.get $kind) (i32.const 2)) (then (return (local.get $kind))))
    ;; A quote ends a piece of a string pprint split only after a space or a whitespace escape
    ;; (at most 6 bytes: a backslash among the 7 before the quote).
    (local.set $i (i32.sub (local.get $last) (i32.const 1)))
    (if (i32.lt_s (local.get $i) (global.get $start)) (then (return (i32.const 0))))
    (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 0x20)) (then (return (i32.const 1))))
    (block $done
      (loop $back
        (br_if $done (i32.or
          (i32.lt_s (local.get $i) (global.get $start))
          (i32.lt_s (local.get $i) (i32.sub (local.get $last) (i32.const 7)))))
        (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 0x5c)) (then (return (i32.const 1))))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (br $back)))
    (i32.const 0))

  ;; Counts the LFs of `mask` (bits of the block at `p`), in order; 1 when a line may not be passed.
  (func $newlines (param $p i32) (param $mask i32) (result i32)
    (local $q i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $mask)))
        (local.set $q (i32.add (local.get $p) (i32.ctz (local.get $mask))))
        (if (call $stopsAt (local.get $q)) (then (return (i32.const 1))))
        (global.set $lines (i32.add (global.get $lines) (i32.const 1)))
        (global.set $start (i32.add (local.get $q) (i32.const 1)))
        (local.set $mask (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))
        (br $next)))
    (i32.const 0))

  ;; True when the byte at `x`, flagged by the block test, really starts what makes a line be read.
  (func $marks (param $x i32) (result i32)
    (local $c i32)
    (local.set $c (i32.load8_u (local.get $x)))
    (if (i32.eq (local.get $c) (i32.const 13))
      (then (return (i32.ne (i32.load8_u offset=1 (local.get $x)) (i32.const 10)))))
    (if (i32.eq (local.get $c) (i32.const 0x74))
      (then
        ;; "race" then a quote, a backslash or "=".
        (if (i32.ne (i32.load offset=1 align=1 (local.get $x)) (i32.const 0x65636172))
          (then (return (i32.const 0))))
        (local.set $c (i32.load8_u offset=5 (local.get $x)))
        (return (i32.or
          (i32.or (i32.eq (local.get $c) (i32.const 0x22)) (i32.eq (local.get $c) (i32.const 0x27)))
          (i32.or (i32.eq (local.get $c) (i32.const 0x5c)) (i32.eq (local.get $c) (i32.const 0x3d)))))))
    ;; "StageRecord(" or "SelectionResult(": compared 8 bytes at a time.
    (if (i32.and
          (i64.eq (i64.load align=1 (local.get $x)) (i64.const 0x6365526567617453))
          (i32.eq (i32.load offset=8 align=1 (local.get $x)) (i32.const 0x2864726f)))
      (then (return (i32.const 1))))
    (i32.and
      (i64.eq (i64.load align=1 (local.get $x)) (i64.const 0x6f697463656c6553))
      (i64.eq (i64.load offset=8 align=1 (local.get $x)) (i64.const 0x28746c757365526e))))

  (func (export "skip") (param $from i32) (param $end i32) (param $max i32) (result i32)
    (local $p i32) (local $nl i32) (local $hit i32) (local $below i32) (local $k i32)
    (local $v v128) (local $w v128)
    (local $lf v128) (local $cr v128) (local $t v128) (local $c v128) (local $e v128)
    (local $s v128) (local $paren v128)
    (local.set $lf (i8x16.splat (i32.const 10)))
    (local.set $cr (i8x16.splat (i32.const 13)))
    (local.set $t (i8x16.splat (i32.const 0x74)))
    (local.set $c (i8x16.splat (i32.const 0x63)))
    (local.set $e (i8x16.splat (i32.const 0x65)))
    (local.set $s (i8x16.splat (i32.const 0x53)))
    (local.set $paren (i8x16.splat (i32.const 0x28)))
    (global.set $lines (i32.const 0))
    (global.set $start (local.get $from))
    (global.set $max (local.get $max))
    (local.set $p (local.get $from))
    (block $out
      (loop $block
        (br_if $out (i32.ge_u (local.get $p) (local.get $end)))
        ;; 32 bytes a step: two blocks of 16, their bits side by side. A flagged byte may start what
        ;; makes a line be read: a CR, a `t` with `ce` 3 bytes on, an `S` with a `(` 11 or 15 bytes on.
        ;; Both blocks are written out here, the constants splatted once: a call for each block
        ;; and the splats in it took about a third of the pass.
        (local.set $v (v128.load align=1 (local.get $p)))
        (local.set $w (v128.load offset=16 align=1 (local.get $p)))
        (local.set $nl (i32.or
          (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $lf)))
          (i32.shl (i8x16.bitmask (i8x16.eq (local.get $w) (local.get $lf))) (i32.const 16))))
        (local.set $hit (i32.or
          (i8x16.bitmask (v128.or
            (v128.or
              (i8x16.eq (local.get $v) (local.get $cr))
              (v128.and
                (i8x16.eq (local.get $v) (local.get $t))
                (v128.and
                  (i8x16.eq (v128.load offset=3 align=1 (local.get $p)) (local.get $c))
                  (i8x16.eq (v128.load offset=4 align=1 (local.get $p)) (local.get $e)))))
            (v128.and
              (i8x16.eq (local.get $v) (local.get $s))
              (v128.or
                (i8x16.eq (v128.load offset=11 align=1 (local.get $p)) (local.get $paren))
                (i8x16.eq (v128.load offset=15 align=1 (local.get $p)) (local.get $paren))))))
          (i32.shl
            (i8x16.bitmask (v128.or
              (v128.or
                (i8x16.eq (local.get $w) (local.get $cr))
                (v128.and
                  (i8x16.eq (local.get $w) (local.get $t))
                  (v128.and
                    (i8x16.eq (v128.load offset=19 align=1 (local.get $p)) (local.get $c))
                    (i8x16.eq (v128.load offset=20 align=1 (local.get $p)) (local.get $e)))))
              (v128.and
                (i8x16.eq (local.get $w) (local.get $s))
                (v128.or
                  (i8x16.eq (v128.load offset=27 align=1 (local.get $p)) (local.get $paren))
                  (i8x16.eq (v128.load offset=31 align=1 (local.get $p)) (local.get $paren))))))
            (i32.const 16))))
        ;; The last step's bytes past `end` are none of the text's.
        (if (i32.lt_u (i32.sub (local.get $end) (local.get $p)) (i32.const 32))
          (then
            (local.set $below
              (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $p))) (i32.const 1)))
            (local.set $nl (i32.and (local.get $nl) (local.get $below)))
            (local.set $hit (i32.and (local.get $hit) (local.get $below)))))
        (block $plain
          (loop $hits
            (br_if $plain (i32.eqz (local.get $hit)))
            (local.set $k (i32.ctz (local.get $hit)))
            ;; The lines that end before the flagged byte come first.
            (local.set $below (i32.sub (i32.shl (i32.const 1) (local.get $k)) (i32.const 1)))
            (if (call $newlines (local.get $p) (i32.and (local.get $nl) (local.get $below)))
              (then (return (global.get $start))))
            (local.set $nl (i32.and (local.get $nl) (i32.xor (local.get $below) (i32.const -1))))
            (if (call $marks (i32.add (local.get $p) (local.get $k)))
              (then (return (global.get $start))))
            (local.set $hit (i32.and (local.get $hit) (i32.sub (local.get $hit) (i32.const 1))))
            (br $hits)))
        (if (local.get $nl)
          (then
            (if (call $newlines (local.get $p) (local.get $nl))
              (then (return (global.get $start))))))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (br $block)))
    (global.get $start)))
