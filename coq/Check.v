(** * A checker over primitive integers and arrays, and its soundness.

    [check r n0 p t] checks that the array [t] holds G(0), ..., G(B) of
    rule [r] (it satisfies the mex equation at every heap) and that the
    periodicity theorem's hypothesis holds; [check_sound] says what a
    [Proved] answer means, in terms of the specification's [G] only. *)
From Coq Require Import List Arith Bool Lia ZArith Uint63 PArray.
From SG Require Import Spec Facts Periodic.
Import ListNotations.

(** ** Between natural numbers and primitive integers *)

Definition to_nat (x : int) : nat := Z.to_nat (to_Z x).
Definition ii (n : nat) : int := of_Z (Z.of_nat n).

Lemma phi_ii n : to_Z (ii n) = (Z.of_nat n mod wB)%Z.
Proof. apply of_Z_spec. Qed.

Lemma ii_S n : ii (S n) = PrimInt63.add (ii n) 1.
Proof.
  apply to_Z_inj; rewrite add_spec, !phi_ii, to_Z_1, Nat2Z.inj_succ.
  rewrite Zplus_mod_idemp_l; reflexivity.
Qed.

Lemma ii_add a b : ii (a + b) = PrimInt63.add (ii a) (ii b).
Proof.
  apply to_Z_inj; rewrite add_spec, !phi_ii, Nat2Z.inj_add, Zplus_mod; reflexivity.
Qed.

Lemma ii_sub a b : b <= a -> ii (a - b) = PrimInt63.sub (ii a) (ii b).
Proof.
  intros H; apply to_Z_inj; rewrite sub_spec, !phi_ii, Nat2Z.inj_sub, Zminus_mod by lia.
  reflexivity.
Qed.

Lemma of_to_nat x : Z.of_nat (to_nat x) = to_Z x.
Proof. unfold to_nat; rewrite Z2Nat.id; [reflexivity|apply to_Z_bounded]. Qed.

Lemma ii_to_nat x : ii (to_nat x) = x.
Proof.
  apply to_Z_inj; rewrite phi_ii, of_to_nat, Z.mod_small; [reflexivity|apply to_Z_bounded].
Qed.

Lemma phi_ii_small n : (Z.of_nat n < wB)%Z -> to_Z (ii n) = Z.of_nat n.
Proof. intros H; rewrite phi_ii, Z.mod_small; lia. Qed.

Lemma testbit_of_nat a i : Z.testbit (Z.of_nat a) (Z.of_nat i) = Nat.testbit a i.
Proof.
  revert a; induction i as [|i IH]; intros a;
    rewrite (Nat.div2_odd a); destruct (Nat.odd a); cbn [Nat.b2n];
    rewrite Nat2Z.inj_add, Nat2Z.inj_mul;
    change (Z.of_nat 2) with 2%Z; change (Z.of_nat 1) with 1%Z;
    change (Z.of_nat 0) with 0%Z.
  - rewrite Z.testbit_odd_0, Nat.testbit_odd_0; reflexivity.
  - rewrite Z.add_0_r, Nat.add_0_r, Z.testbit_even_0, Nat.testbit_even_0; reflexivity.
  - rewrite Nat2Z.inj_succ, Z.testbit_odd_succ, Nat.testbit_odd_succ' by lia; apply IH.
  - rewrite Z.add_0_r, Nat.add_0_r, Nat2Z.inj_succ, Z.testbit_even_succ, Nat.testbit_even_succ'
      by lia; apply IH.
Qed.

Lemma of_nat_lxor a b : Z.of_nat (Nat.lxor a b) = Z.lxor (Z.of_nat a) (Z.of_nat b).
Proof.
  apply Z.bits_inj'; intros i Hi.
  rewrite <- (Z2Nat.id i Hi), Z.lxor_spec, !testbit_of_nat, Nat.lxor_spec; reflexivity.
Qed.

Lemma to_nat_lxor x y : to_nat (PrimInt63.lxor x y) = Nat.lxor (to_nat x) (to_nat y).
Proof.
  apply Nat2Z.inj; rewrite of_nat_lxor, !of_to_nat; apply lxor_spec'.
Qed.

Lemma to_nat_ltb x y : PrimInt63.ltb x y = true <-> to_nat x < to_nat y.
Proof. rewrite ltb_spec, <- !of_to_nat; lia. Qed.

(** The table's value at heap [n]. *)
Definition val (t : array int) (n : nat) : nat := to_nat (get t (ii n)).

(** ** The checker *)

(** A set of small numbers, as an array of booleans. *)
Definition mark (m : array bool) (v : int) : array bool :=
  if PrimInt63.ltb v (PArray.length m) then PArray.set m v true else m.

(** A set of numbers below 63, as the bits of an int (faster). *)
Definition bmark (m v : int) : int :=
  if PrimInt63.ltb v 63 then PrimInt63.lor m (PrimInt63.lsl 1 v) else m.

(** ** Marking the values of a heap's moves

    Over any structure [M] holding a set of small numbers, given how to
    add one ([mk]) and what the structure means ([I m S]: [m] holds the
    numbers [w] with [S w], as far as it can tell). *)
Section Marking.
Context {M : Type} (mk : M -> int -> M) (I : M -> (nat -> Prop) -> Prop).
Context (Hiff : forall m S S', I m S -> (forall w, S w <-> S' w) -> I m S').
Context (Hmark : forall m S v, I m S -> I (mk m v) (fun w => S w \/ w = to_nat v)).

(** Mark [h i], [h (i+1)], ..., [h (i+k-1)]. *)
Fixpoint mark_range (k : nat) (i : int) (h : int -> int) (m : M) : M :=
  match k with
  | O => m
  | S k' => mark_range k' (PrimInt63.add i 1) h (mk m (h i))
  end.

(** Mark the values of the moves of digit [d] at position [k] from heap
    [n] (whose int is [ni]); splits [a + (m - a)] with [a <= m / 2]. *)
Definition mark_digit (t : array int) (n : nat) (ni : int)
    (k : nat) (ki : int) (d : nat) (m : M) : M :=
  if k <=? n then
    let mn := n - k in
    let mi := PrimInt63.sub ni ki in
    let m1 := if bit d 0 && (1 <=? k) && (mn =? 0) then mk m 0 else m in
    let m2 := if bit d 1 && (1 <=? k) && (1 <=? mn) then mk m1 (get t mi) else m1 in
    if bit d 2 then
      mark_range (Nat.div2 mn) 1
        (fun a => PrimInt63.lxor (get t a) (get t (PrimInt63.sub mi a))) m2
    else m2
  else m.

Fixpoint mark_digits (t : array int) (n : nat) (ni : int)
    (dl : list (nat * int * nat)) (m : M) : M :=
  match dl with
  | [] => m
  | (k, ki, d) :: dl' => mark_digits t n ni dl' (mark_digit t n ni k ki d m)
  end.


(** What digit [d] at position [k] marks at heap [n]. *)
Definition digit_marks (t : array int) (n k d w : nat) : Prop :=
  k <= n /\
  ((bit d 0 = true /\ 1 <= k /\ n - k = 0 /\ w = 0) \/
   (bit d 1 = true /\ 1 <= k /\ 1 <= n - k /\ w = val t (n - k)) \/
   (bit d 2 = true /\ exists a, 1 <= a <= Nat.div2 (n - k) /\
                       w = Nat.lxor (val t a) (val t (n - k - a)))).

Lemma Inv_mark_range k i h m S :
  I m S ->
  I (mark_range k (ii i) h m) 
      (fun w => S w \/ exists j, i <= j < i + k /\ w = to_nat (h (ii j))).
Proof.
  revert i m S; induction k as [|k IH]; simpl; intros i m S H.
  - apply (Hiff _ _ _ H); intros w; split; [tauto|].
    intros [Hs|[j [Hj _]]]; auto; lia.
  - rewrite <- ii_S. eapply Hiff; [apply IH, Hmark, H|].
    intros w; split.
    + intros [[Hs| ->]|[j [Hj ->]]]; [tauto| |].
      * right; exists i; split; [lia|auto].
      * right; exists j; split; [lia|auto].
    + intros [Hs|[j [Hj ->]]]; [tauto|].
      destruct (Nat.eq_dec j i) as [->|]; [left; right; auto|].
      right; exists j; split; [lia|auto].
Qed.

Lemma Inv_mark_digit t n k d m S :
  I m S ->
  I (mark_digit t n (ii n) k (ii k) d m) (fun w => S w \/ digit_marks t n k d w).
Proof.
  intros H; unfold mark_digit, digit_marks.
  destruct (k <=? n) eqn:Hk.
  2:{ apply (Hiff _ _ _ H); intros w; apply Nat.leb_gt in Hk; split; [tauto|].
      intros [Hs|[Hkn _]]; auto; lia. }
  apply Nat.leb_le in Hk. rewrite <- ii_sub by auto. cbv zeta.
  assert (H1 : I (if bit d 0 && (1 <=? k) && (n - k =? 0) then mk m 0 else m) 
                 (fun w => S w \/ (bit d 0 = true /\ 1 <= k /\ n - k = 0 /\ w = 0))).
  { destruct (bit d 0 && (1 <=? k) && (n - k =? 0)) eqn:E.
    - repeat rewrite andb_true_iff in E; destruct E as [[E0 E1] E2].
      apply Nat.leb_le in E1; apply Nat.eqb_eq in E2.
      eapply Hiff; [apply Hmark, H|]; intros w; simpl; intuition.
    - eapply Hiff; [apply H|]; intros w; split; [tauto|].
      intros [Hs|[E0 [E1 [E2 ->]]]]; auto.
      apply Nat.leb_le in E1; apply Nat.eqb_eq in E2; rewrite E0, E1, E2 in E; discriminate. }
  set (m1 := if bit d 0 && (1 <=? k) && (n - k =? 0) then mk m 0 else m) in *.
  assert (H2 : I (if bit d 1 && (1 <=? k) && (1 <=? n - k) then mk m1 (get t (ii (n - k))) else m1) 
                 (fun w => (S w \/ (bit d 0 = true /\ 1 <= k /\ n - k = 0 /\ w = 0)) \/
                           (bit d 1 = true /\ 1 <= k /\ 1 <= n - k /\ w = val t (n - k)))).
  { destruct (bit d 1 && (1 <=? k) && (1 <=? n - k)) eqn:E.
    - repeat rewrite andb_true_iff in E; destruct E as [[E0 E1] E2].
      apply Nat.leb_le in E1, E2.
      eapply Hiff; [apply Hmark, H1|]; intros w; unfold val; intuition.
    - eapply Hiff; [apply H1|]; intros w; split; [tauto|].
      intros [Hs|[E0 [E1 [E2 ->]]]]; auto.
      apply Nat.leb_le in E1, E2; rewrite E0, E1, E2 in E; discriminate. }
  set (m2 := if bit d 1 && (1 <=? k) && (1 <=? n - k) then mk m1 (get t (ii (n - k))) else m1) in *.
  destruct (bit d 2) eqn:E2.
  - change 1%uint63 with (ii 1).
    eapply Hiff; [apply Inv_mark_range, H2|]; intros w; split.
    + intros [[[Hs|Hb]|Hb]|[j [Hj ->]]]; [tauto|tauto|tauto|].
      right; split; auto; right; right; split; auto; exists j; split; [lia|].
      rewrite <- ii_sub, to_nat_lxor by (pose proof (Nat.div2_odd (n - k));
        destruct (Nat.odd (n - k)); simpl Nat.b2n in *; lia).
      reflexivity.
    + intros [Hs|[_ [Hb|[Hb|[_ [a [Ha ->]]]]]]]; [tauto|tauto|tauto|].
      right; exists a; split; [lia|].
      rewrite <- ii_sub, to_nat_lxor by (pose proof (Nat.div2_odd (n - k));
        destruct (Nat.odd (n - k)); simpl Nat.b2n in *; lia).
      reflexivity.
  - eapply Hiff; [apply H2|]; intros w; split.
    + intros [[Hs|Hb]|Hb]; tauto.
    + intros [Hs|[_ [Hb|[Hb|[Hb _]]]]]; [tauto|tauto|tauto|discriminate].
Qed.

Lemma Inv_mark_digits t n ds l m S :
  I m S ->
  I (mark_digits t n (ii n) (map (fun k => (k, ii k, nth k ds 0)) l) m) 
      (fun w => S w \/ exists k, In k l /\ digit_marks t n k (nth k ds 0) w).
Proof.
  revert m S; induction l as [|k l IH]; simpl; intros m S H.
  - eapply Hiff; [apply H|]; intros w; split; [tauto|]. intros [Hs|[k [[] _]]]; auto.
  - eapply Hiff; [apply IH, Inv_mark_digit, H|]; intros w; split.
    + intros [[Hs|Hd]|[j [Hj Hd]]]; [tauto| |]; right; eauto.
    + intros [Hs|[j [[<-|Hj] Hd]]]; [tauto|left; right; auto|right; eauto].
Qed.

End Marking.

Definition digit_list (ds : list nat) : list (nat * int * nat) :=
  map (fun k => (k, ii k, nth k ds 0)) (seq 0 (List.length ds)).

Fixpoint all_marked (k : nat) (i : int) (m : array bool) : bool :=
  match k with
  | O => true
  | S k' => if get m i then all_marked k' (PrimInt63.add i 1) m else false
  end.

Fixpoint all_bits (k : nat) (i : int) (m : int) : bool :=
  match k with
  | O => true
  | S k' => if Uint63.bit m i then all_bits k' (PrimInt63.add i 1) m else false
  end.

(** The mex equation at heap [n]: [t.[n]] is not the value of a move, and
    every smaller number is. *)
Definition heap_ok (t : array int) (L : int) (dl : list (nat * int * nat))
    (n : nat) (ni : int) : bool :=
  let g := get t ni in
  if PrimInt63.ltb g 63 then
    let m := mark_digits bmark t n ni dl 0%uint63 in
    if Uint63.bit m g then false else all_bits (to_nat g) 0 m
  else
    let m := mark_digits mark t n ni dl (make L false) in
    if PrimInt63.ltb g (PArray.length m) then
      if get m g then false else all_marked (to_nat g) 0 m
    else false.

(** The first [j] in [n, n + k) where [P j] fails. *)
Fixpoint first_bad (k n : nat) (ni : int) (P : nat -> int -> bool) : option nat :=
  match k with
  | O => None
  | S k' => if P n ni then first_bad k' (S n) (PrimInt63.add ni 1) P else Some n
  end.

Fixpoint max_value (k : nat) (i : int) (t : array int) (acc : int) : int :=
  match k with
  | O => acc
  | S k' => max_value k' (PrimInt63.add i 1) t
              (if PrimInt63.ltb acc (get t i) then get t i else acc)
  end.

(** The rules the theorems cover: codes with digits 0 to 7 and 0 or 4
    before the point, and subtraction sets of positive numbers. *)
Definition covered (r : rule) : option (list nat) :=
  match r with
  | Code ds =>
      if forallb (fun d => d <? 8) ds && ((nth 0 ds 0 =? 0) || (nth 0 ds 0 =? 4))
      then Some ds else None
  | Subtract s => if forallb (fun k => 1 <=? k) s then Some (sub_digits s) else None
  end.

Inductive verdict :=
| Proved
| NotCovered
| TooFewValues (needed : nat)
| WrongValueAt (heap : nat)
| NotPeriodicAt (heap : nat).

Definition check (r : rule) (n0 p : nat) (t : array int) : verdict :=
  match covered r with
  | None => NotCovered
  | Some ds =>
      let nv := to_nat (PArray.length t) in
      let e := theorem_end ds (Nat.max n0 1) p in
      if nv <? e + p then TooFewValues (e + p) else
      let L := PrimInt63.add (max_value nv 0 t 0) 1 in
      match first_bad nv 0 0 (heap_ok t L (digit_list ds)) with
      | Some n => WrongValueAt n
      | None =>
          let pi := ii p in
          match first_bad (e - n0) n0 (ii n0)
                  (fun _ i => PrimInt63.eqb (get t (PrimInt63.add i pi)) (get t i)) with
          | Some n => NotPeriodicAt n
          | None => Proved
          end
      end
  end.

(** ** Soundness *)

Lemma first_bad_ok k n P :
  first_bad k n (ii n) P = None -> forall j, n <= j < n + k -> P j (ii j) = true.
Proof.
  revert n; induction k as [|k IH]; simpl; intros n H j Hj; [lia|].
  destruct (P n (ii n)) eqn:E; [|discriminate].
  destruct (Nat.eq_dec j n) as [->|Hne]; auto.
  rewrite <- ii_S in H; apply (IH (S n) H); lia.
Qed.

Lemma all_marked_ok k i m :
  all_marked k (ii i) m = true -> forall j, i <= j < i + k -> get m (ii j) = true.
Proof.
  revert i; induction k as [|k IH]; simpl; intros i H j Hj; [lia|].
  destruct (get m (ii i)) eqn:E; [|discriminate].
  destruct (Nat.eq_dec j i) as [->|Hne]; auto.
  rewrite <- ii_S in H; apply (IH (S i) H); lia.
Qed.

Lemma all_bits_ok k i m :
  all_bits k (ii i) m = true -> forall j, i <= j < i + k -> Uint63.bit m (ii j) = true.
Proof.
  revert i; induction k as [|k IH]; simpl; intros i H j Hj; [lia|].
  destruct (Uint63.bit m (ii i)) eqn:E; [|discriminate].
  destruct (Nat.eq_dec j i) as [->|Hne]; auto.
  rewrite <- ii_S in H; apply (IH (S i) H); lia.
Qed.

(** [m] holds exactly the numbers [w] with [S w], below its length [L0]. *)
Definition Inv (m : array bool) (L0 : int) (S : nat -> Prop) : Prop :=
  PArray.length m = L0 /\
  forall w, w < to_nat L0 -> (get m (ii w) = true <-> S w).

Lemma Inv_iff m L0 S S' : Inv m L0 S -> (forall w, S w <-> S' w) -> Inv m L0 S'.
Proof. intros [H1 H2] H; split; auto; intros w Hw; rewrite H2, H; tauto. Qed.

Lemma Inv_make L : Inv (make L false) (PArray.length (make L false)) (fun _ => False).
Proof. split; auto; intros w _; rewrite get_make; split; [discriminate|tauto]. Qed.

Lemma small_w w L0 : w < to_nat L0 -> to_Z (ii w) = Z.of_nat w.
Proof.
  intros H; apply phi_ii_small; pose proof (to_Z_bounded L0).
  rewrite <- of_to_nat in H0; lia.
Qed.

Lemma Inv_mark m L0 S v : Inv m L0 S -> Inv (mark m v) L0 (fun w => S w \/ w = to_nat v).
Proof.
  intros [HL H]; unfold mark; destruct (PrimInt63.ltb v (PArray.length m)) eqn:Hv.
  - split; [rewrite length_set; auto|]. intros w Hw.
    destruct (PrimInt63.eqb (ii w) v) eqn:E.
    + apply eqb_spec in E; subst v.
      rewrite get_set_same by (rewrite HL; apply to_nat_ltb; rewrite <- HL;
        apply to_nat_ltb in Hv; auto).
      split; auto. intros _; right.
      apply Nat2Z.inj; rewrite of_to_nat, (small_w w L0 Hw); reflexivity.
    + assert (Hne : v <> ii w) by (intros ->; rewrite eqb_refl in E; discriminate).
      rewrite get_set_other by auto. rewrite H by auto.
      split; [tauto|]. intros [Hs| ->]; auto. rewrite ii_to_nat in Hne; congruence.
  - split; auto. intros w Hw; rewrite H by auto. split; [tauto|].
    intros [Hs| ->]; auto. exfalso.
    assert (to_nat v < to_nat L0) by lia.
    apply to_nat_ltb in H0; rewrite HL in Hv; congruence.
Qed.

Lemma marks_are_options t ds n w :
  (exists k, In k (seq 0 (List.length ds)) /\ digit_marks t n k (nth k ds 0) w) <->
  code_option ds (val t) n w.
Proof.
  unfold code_option, digit_marks; split.
  - intros [k [Hk [Hkn Hc]]]; apply in_seq in Hk.
    exists k; split; [lia|split; auto].
    destruct Hc as [Hc|[Hc|[E [a [Ha ->]]]]]; auto.
    right; right; split; auto; exists a; split; auto.
    pose proof (Nat.div2_odd (n - k)); destruct (Nat.odd (n - k)); simpl Nat.b2n in *; lia.
  - intros [k [Hk [Hkn Hc]]]; exists k; split; [apply in_seq; lia|split; auto].
    destruct Hc as [Hc|[Hc|[E [a [Ha ->]]]]]; auto.
    right; right; split; auto.
    pose proof (Nat.div2_odd (n - k)) as Hd.
    destruct (le_lt_dec a (Nat.div2 (n - k))).
    + exists a; split; auto; lia.
    + exists (n - k - a); split;
        [destruct (Nat.odd (n - k)); simpl Nat.b2n in *; lia|].
      replace (n - k - (n - k - a)) with a by lia; apply Nat.lxor_comm.
Qed.

(** [m]'s bits below 63 are the numbers [w] with [S w]. *)
Definition IB (m : int) (S : nat -> Prop) : Prop :=
  forall w, w < 63 -> (Uint63.bit m (ii w) = true <-> S w).

Lemma IB_iff m S S' : IB m S -> (forall w, S w <-> S' w) -> IB m S'.
Proof. intros H H' w Hw; rewrite <- H'; apply H, Hw. Qed.

Lemma IB_zero : IB 0 (fun _ => False).
Proof. intros w _; rewrite bit_0; split; [discriminate|tauto]. Qed.

Lemma bit_one_lsl v w :
  to_nat v < 63 -> w < 63 -> Uint63.bit (PrimInt63.lsl 1 v) (ii w) = Nat.eqb w (to_nat v).
Proof.
  intros Hv Hw.
  assert (Hw' : to_Z (ii w) = Z.of_nat w) by (apply (small_w w 63); exact Hw).
  assert (Hv' : to_Z v = Z.of_nat (to_nat v)) by (rewrite of_to_nat; reflexivity).
  pose proof (to_Z_bounded (ii w)) as Bw.
  rewrite bit_lsl.
  destruct (PrimInt63.ltb (ii w) v) eqn:E1.
  - apply ltb_spec in E1. cbn [orb]. symmetry; apply Nat.eqb_neq; lia.
  - assert (E1' : ~ (to_Z (ii w) < to_Z v)%Z)
      by (intro C; apply ltb_spec in C; congruence).
    destruct (PrimInt63.leb digits (ii w)) eqn:E2.
    + apply leb_spec in E2. change (to_Z digits) with 63%Z in E2. lia.
    + cbn [orb]. rewrite bit_1.
      destruct (Nat.eqb w (to_nat v)) eqn:E3.
      * apply Nat.eqb_eq in E3. apply eqb_spec. apply to_Z_inj.
        rewrite sub_spec, Hw', Hv', E3, Z.sub_diag. reflexivity.
      * apply Nat.eqb_neq in E3.
        destruct (PrimInt63.eqb (PrimInt63.sub (ii w) v) 0) eqn:E4; auto.
        apply eqb_spec in E4. apply (f_equal to_Z) in E4.
        rewrite sub_spec in E4. change (to_Z 0) with 0%Z in E4.
        rewrite Z.mod_small in E4 by lia. lia.
Qed.

Lemma IB_mark m S v : IB m S -> IB (bmark m v) (fun w => S w \/ w = to_nat v).
Proof.
  intros H w Hw; unfold bmark.
  destruct (PrimInt63.ltb v 63) eqn:Hv.
  - apply to_nat_ltb in Hv. change (to_nat 63) with 63 in Hv.
    rewrite lor_spec, bit_one_lsl by auto. rewrite orb_true_iff, Nat.eqb_eq, (H w Hw).
    tauto.
  - rewrite (H w Hw). split; [tauto|]. intros [Hs| ->]; auto. exfalso.
    assert (Hlt : to_nat v < to_nat 63) by (change (to_nat 63) with 63; lia).
    apply to_nat_ltb in Hlt. congruence.
Qed.

Lemma heap_ok_sound t L ds n :
  heap_ok t L (digit_list ds) n (ii n) = true ->
  ~ In (val t n) (map (value (val t)) (moves (Code ds) n)) /\
  (forall u, u < val t n -> In u (map (value (val t)) (moves (Code ds) n))).
Proof.
  unfold heap_ok, digit_list; cbv zeta.
  destruct (PrimInt63.ltb (get t (ii n)) 63) eqn:Hg63.
  - pose proof (Inv_mark_digits bmark IB IB_iff IB_mark t n ds (seq 0 (List.length ds))
                  0%uint63 _ IB_zero) as HI.
    set (m := mark_digits bmark _ _ _ _ _) in *.
    destruct (Uint63.bit m (get t (ii n))) eqn:Hm; [discriminate|].
    intros Ha. apply to_nat_ltb in Hg63. change (to_nat 63) with 63 in Hg63.
    change 0%uint63 with (ii 0) in Ha.
    pose proof (all_bits_ok _ _ _ Ha) as Hall.
    split.
    + rewrite code_option_iff, <- marks_are_options. intros Hs.
      assert (Uint63.bit m (ii (val t n)) = true) by (apply HI; [unfold val; lia|auto]).
      unfold val in H; rewrite ii_to_nat in H; congruence.
    + intros u Hu. rewrite code_option_iff, <- marks_are_options.
      assert (Hu' : u < 63) by (unfold val in Hu; lia).
      destruct (proj1 (HI u Hu') (Hall u (conj (Nat.le_0_l u) Hu))) as [[]|Hs]; auto.
  - set (L0 := PArray.length (make L false)).
    pose proof (Inv_mark_digits mark (fun m S => Inv m L0 S)
                  (fun m S S' => Inv_iff m L0 S S') (fun m S v => Inv_mark m L0 S v)
                  t n ds (seq 0 (List.length ds)) _ _ (Inv_make L)) as HI.
    set (m := mark_digits mark _ _ _ _ _) in *.
    destruct HI as [HL HI].
    destruct (PrimInt63.ltb (get t (ii n)) (PArray.length m)) eqn:Hg; [|discriminate].
    destruct (get m (get t (ii n))) eqn:Hm; [discriminate|].
    intros Ha. apply to_nat_ltb in Hg. rewrite HL in Hg.
    change 0%uint63 with (ii 0) in Ha.
    pose proof (all_marked_ok _ _ _ Ha) as Hall.
    split.
    + rewrite code_option_iff, <- marks_are_options. intros Hs.
      assert (get m (ii (val t n)) = true) by (apply HI; auto).
      unfold val in H; rewrite ii_to_nat in H; congruence.
    + intros u Hu. rewrite code_option_iff, <- marks_are_options.
      assert (Hu' : u < to_nat L0) by (unfold val in Hu; lia).
      destruct (proj1 (HI u Hu') (Hall u (conj (Nat.le_0_l u) Hu))) as [[]|Hs]; auto.
Qed.

Lemma covered_G r ds : covered r = Some ds -> forall n, G r n = G (Code ds) n.
Proof.
  destruct r as [ds'|s]; simpl.
  - destruct (_ && _); congruence.
  - destruct (forallb _ s); [|discriminate]. intros [= <-] n; apply G_subtract.
Qed.

Theorem check_sound r n0 p t :
  check r n0 p t = Proved -> forall n, n0 <= n -> G r (n + p) = G r n.
Proof.
  unfold check.
  destruct (covered r) as [ds|] eqn:Hc; [|discriminate].
  intros H n Hn; rewrite !(covered_G r ds Hc).
  set (nv := to_nat (PArray.length t)) in *.
  set (e := theorem_end ds (Nat.max n0 1) p) in *.
  destruct (nv <? e + p) eqn:Hnv; [discriminate|]. apply Nat.ltb_ge in Hnv.
  cbv zeta in H.
  destruct (first_bad nv 0 0 _) eqn:Hb; [discriminate|].
  destruct (first_bad (e - n0) n0 (ii n0) _) eqn:Hp; [discriminate|].
  clear H.
  assert (He1 : Nat.max n0 1 <= e) by
    (unfold e, theorem_end; destruct (has_split ds); lia).
  (* the table is G *)
  assert (HG : forall j, j < nv -> val t j = G (Code ds) j).
  { intros j Hj. apply (table_is_G (Code ds) (val t) (nv - 1)); [|lia].
    intros i Hi. apply heap_ok_sound with (L := PrimInt63.add (max_value nv 0 t 0) 1).
    change 0%uint63 with (ii 0) in Hb.
    apply (first_bad_ok _ _ _ Hb); lia. }
  (* agreement on the theorem's range *)
  assert (HA : forall j, n0 <= j < e -> G (Code ds) (j + p) = G (Code ds) j).
  { intros j Hj. rewrite <- !HG by lia.
    pose proof (first_bad_ok _ _ _ Hp j ltac:(lia)) as Hj'; simpl in Hj'.
    apply eqb_spec in Hj'. unfold val; rewrite ii_add, Hj'; reflexivity. }
  destruct (Nat.eq_dec n 0) as [->|Hn0].
  - apply HA; lia.
  - apply (code_periodic ds (Nat.max n0 1) p); [lia| |lia].
    intros j Hj; apply HA; fold e in Hj; lia.
Qed.
