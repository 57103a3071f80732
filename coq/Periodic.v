(** * The periodicity theorems (docs/THEORY.md, Theorems 1 and 2).

    For a finite code with bits 1, 2 and 4 only (any digit before the
    point, which the specification lets split only), with [t] the largest
    position and [n1 = max n0 1]:
    - Theorem 1 (subtraction window): if no digit has bit 4, agreement
      [G (n + p) = G n] for [n1 <= n < n1 + t] gives it for all [n >= n1];
    - Theorem 2 (Guy-Smith): otherwise agreement for
      [n1 <= n < 2 n1 + p + t] gives it for all [n >= n1].
    Finite subtraction sets are codes of digits 3 (Theorem 1). *)
From Coq Require Import List Arith Bool Lia.
From SG Require Import Spec Facts.
Import ListNotations.

Definition has_split (ds : list nat) : bool := existsb (fun d => bit d 2) ds.

(** The first heap from which the theorem's induction runs. *)
Definition theorem_end (ds : list nat) (n1 p : nat) : nat :=
  if has_split ds then 2 * n1 + p + (length ds - 1) else n1 + (length ds - 1).

Lemma has_split_nth ds k : k < length ds -> bit (nth k ds 0) 2 = true -> has_split ds = true.
Proof.
  intros Hk Hb; apply existsb_exists; exists (nth k ds 0); split; auto.
  apply nth_In; auto.
Qed.

Theorem code_periodic ds n1 p :
  1 <= n1 ->
  (forall n, n1 <= n < theorem_end ds n1 p -> G (Code ds) (n + p) = G (Code ds) n) ->
  forall n, n1 <= n -> G (Code ds) (n + p) = G (Code ds) n.
Proof.
  intros Hn1 Hyp n; induction n as [n IH] using lt_wf_ind; intros Hn.
  destruct (lt_dec n (theorem_end ds n1 p)) as [Hlt|Hge]; [apply Hyp; lia|].
  set (g := G (Code ds)) in *.
  assert (IH' : forall x, n1 <= x -> x < n -> g (x + p) = g x) by (intros; apply IH; lia).
  clear IH Hyp.
  assert (HE : n1 + (length ds - 1) <= n) by
    (unfold theorem_end in Hge; destruct (has_split ds); lia).
  assert (HS : has_split ds = true -> 2 * n1 + p + (length ds - 1) <= n) by
    (unfold theorem_end in Hge; intros E; rewrite E in Hge; lia).
  unfold g; rewrite (G_mex _ (n + p)), (G_mex _ n); fold g.
  apply mex_ext; intros v; rewrite !code_option_iff; unfold code_option; split.
  - intros [k [Hk [Hkn Hc]]].
    exists k; split; auto; split; [lia|].
    destruct Hc as [[_ [_ [E _]]]|[[E0 [E1 [E2 ->]]]|[E0 [a [Ha ->]]]]].
    + lia.
    + right; left; repeat split; auto; [lia|].
      replace (n + p - k) with (n - k + p) by lia; apply IH'; lia.
    + right; right; split; auto.
      specialize (HS (has_split_nth ds k Hk E0)).
      destruct (le_lt_dec (n + p - k - a) a) as [Hb|Hb].
      * (* the larger part is a *)
        exists (a - p); split; [lia|].
        rewrite Nat.lxor_comm, (Nat.lxor_comm (g (a - p))).
        replace (n - k - (a - p)) with (n + p - k - a) by lia.
        f_equal; replace a with (a - p + p) at 1 by lia; apply IH'; lia.
      * exists a; split; [lia|]. f_equal.
        replace (n + p - k - a) with (n - k - a + p) by lia; apply IH'; lia.
  - intros [k [Hk [Hkn Hc]]].
    exists k; split; auto; split; [lia|].
    destruct Hc as [[_ [_ [E _]]]|[[E0 [E1 [E2 ->]]]|[E0 [a [Ha ->]]]]].
    + lia.
    + right; left; repeat split; auto; [lia|].
      replace (n + p - k) with (n - k + p) by lia; symmetry; apply IH'; lia.
    + right; right; split; auto.
      specialize (HS (has_split_nth ds k Hk E0)).
      destruct (le_lt_dec (n - k - a) a) as [Hb|Hb].
      * exists (a + p); split; [lia|].
        replace (n + p - k - (a + p)) with (n - k - a) by lia.
        f_equal; symmetry; apply IH'; lia.
      * exists a; split; [lia|]. f_equal.
        replace (n + p - k - a) with (n - k - a + p) by lia; symmetry; apply IH'; lia.
Qed.

(** ** Subtraction sets are codes of digits 3 *)

Definition sub_digits (s : list nat) : list nat :=
  map (fun k => if (1 <=? k) && existsb (Nat.eqb k) s then 3 else 0)
      (seq 0 (S (list_max s))).

Lemma sub_digits_nth s k :
  k <= list_max s ->
  nth k (sub_digits s) 0 = if (1 <=? k) && existsb (Nat.eqb k) s then 3 else 0.
Proof.
  intros Hk; unfold sub_digits.
  set (F := fun k => if (1 <=? k) && existsb (Nat.eqb k) s then 3 else 0).
  transitivity (nth k (map F (seq 0 (S (list_max s)))) (F 0)); [reflexivity|].
  rewrite map_nth, seq_nth by lia; reflexivity.
Qed.

Lemma sub_digits_ok s f n v :
  f 0 = 0 ->
  In v (map (value f) (moves (Subtract s) n)) <-> In v (map (value f) (moves (Code (sub_digits s)) n)).
Proof.
  intros H0; rewrite code_option_iff; unfold code_option.
  unfold sub_digits at 1; rewrite map_length, seq_length; unfold moves; rewrite in_map_iff; split.
  - intros [o [Hv Ho]]; apply in_map_iff in Ho as [k [<- Hk]].
    apply filter_In in Hk as [Hks Hk]; apply andb_true_iff in Hk as [H1 H2].
    apply Nat.leb_le in H1, H2.
    assert (Hkm : k <= list_max s).
    { pose proof (proj1 (list_max_le s (list_max s)) (le_n _)) as HF.
      rewrite Forall_forall in HF; auto. }
    exists k; split; [lia|split; [lia|]].
    rewrite sub_digits_nth by lia.
    assert (E : (1 <=? k) && existsb (Nat.eqb k) s = true).
    { apply andb_true_iff; split; [apply Nat.leb_le; lia|].
      apply existsb_exists; exists k; split; auto; apply Nat.eqb_refl. }
    rewrite E. simpl in Hv; rewrite Nat.lxor_0_r in Hv.
    destruct (Nat.eq_dec n k) as [->|Hne].
    + left; repeat split; auto; [lia|]. rewrite Nat.sub_diag in Hv; congruence.
    + right; left; repeat split; auto; lia.
  - intros [k [Hk [Hkn Hc]]].
    rewrite sub_digits_nth in Hc by lia.
    destruct ((1 <=? k) && existsb (Nat.eqb k) s) eqn:E;
      [|destruct Hc as [[Hb _]|[[Hb _]|[Hb _]]]; discriminate].
    apply andb_true_iff in E as [E1 E2]; apply Nat.leb_le in E1.
    apply existsb_exists in E2 as [x [Hx Hxe]]; apply Nat.eqb_eq in Hxe; subst x.
    exists [n - k]; split.
    + simpl; rewrite Nat.lxor_0_r.
      destruct Hc as [[_ [_ [E ->]]]|[[_ [_ [_ ->]]]|[Hb _]]]; [|auto|discriminate].
      replace (n - k) with 0 by lia; auto.
    + apply in_map_iff; exists k; split; auto; apply filter_In; split; auto.
      apply andb_true_iff; split; apply Nat.leb_le; lia.
Qed.

Lemma G_subtract s n : G (Subtract s) n = G (Code (sub_digits s)) n.
Proof. apply G_ext; intros; apply sub_digits_ok; auto. Qed.
