(** * The specification: take-and-break games and their Grundy values.

    This file is what a reader must trust (with the Coq kernel).  It is
    written from the definition of the games, not from sgexplore's
    algorithms: the moves of a heap are listed exactly as the rules say,
    and [G n] is the mex of the values of the moves of heap [n], a move
    leaving several heaps having the xor of their values. *)

From Coq Require Import List Arith Bool.
Import ListNotations.

(** A rule is a take-and-break code or a finite subtraction set.

    A code [d0.d1d2d3...] with finitely many digits is the list of its
    digits, position 0 included: Kayles [0.77] is [Code [0;7;7]],
    [4.344] is [Code [4;3;4;4]].  A subtraction set such as
    [subtract{2,3,5}] is [Subtract [2;3;5]]. *)
Inductive rule :=
| Code (digits : list nat)
| Subtract (set : list nat).

(** Bit [b] of digit [d]: bit 0 is the value 1, bit 1 is 2, bit 2 is 4. *)
Definition bit (d b : nat) : bool := Nat.testbit d b.

(** The moves of a code's digit [d] at position [k] from a heap of [n]
    tokens, each given as the list of the heaps it leaves.  The move
    removes [k] tokens, so [m = n - k] remain, and leaves
    - nothing, if bit 1 is set and [m = 0];
    - one heap of [m], if bit 2 is set and [m >= 1];
    - two non-empty heaps [a] and [m - a] (for each [1 <= a <= m - 1]),
      if bit 4 is set.
    A move removing nothing ([k = 0]) can only split: leaving nothing or
    the heap itself is no move, so bits 1 and 2 count only for [k >= 1]. *)
Definition digit_moves (k d n : nat) : list (list nat) :=
  if k <=? n then
    let m := n - k in
    (if bit d 0 && (1 <=? k) && (m =? 0) then [ [] ] else [])
    ++ (if bit d 1 && (1 <=? k) && (1 <=? m) then [ [m] ] else [])
    ++ (if bit d 2 then map (fun a => [a; m - a]) (seq 1 (m - 1)) else [])
  else [].

(** All moves from a heap of [n] tokens.  A code's moves are those of
    its digits, at positions [0 .. length digits - 1].  A subtraction set
    removes [k] tokens, for each [k >= 1] of the set with [k <= n],
    leaving one heap of [n - k] (the empty heap when [k = n]). *)
Definition moves (r : rule) (n : nat) : list (list nat) :=
  match r with
  | Code ds => flat_map (fun k => digit_moves k (nth k ds 0) n) (seq 0 (length ds))
  | Subtract s => map (fun k => [n - k]) (filter (fun k => (1 <=? k) && (k <=? n)) s)
  end.

(** The value of a position of several heaps, given the value [g] of
    each heap: the xor (nim-sum) of the heaps' values; 0 for no heap. *)
Definition value (g : nat -> nat) (heaps : list nat) : nat :=
  fold_right (fun h v => Nat.lxor (g h) v) 0 heaps.

(** mex: the least natural number that is not in the list.  It is at
    most the list's length, so [length s + 1] candidates suffice. *)
Fixpoint mex_from (s : list nat) (v fuel : nat) : nat :=
  match fuel with
  | 0 => v
  | S fuel' => if existsb (Nat.eqb v) s then mex_from s (S v) fuel' else v
  end.
Definition mex (s : list nat) : nat := mex_from s 0 (length s).

(** [table r n] is the list [G 0; ...; G (n-1)]: each value is the mex
    of the values of the moves of its heap, the heaps left by a move
    being smaller (which Facts.v proves), so already in the list. *)
Fixpoint table (r : rule) (n : nat) : list nat :=
  match n with
  | 0 => []
  | S n' =>
      let t := table r n' in
      t ++ [mex (map (value (fun h => nth h t 0)) (moves r n'))]
  end.

(** The Grundy value of one heap of [n] tokens. *)
Definition G (r : rule) (n : nat) : nat := nth n (table r (S n)) 0.

(** Facts.v proves that this is the mex equation:
      G r n = mex (map (value (G r)) (moves r n)). *)
