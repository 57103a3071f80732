(** Basic facts about the specification: the mex equation, the
    characterisation of mex, and of the moves of a code. *)
From Coq Require Import List Arith Bool Lia.
From SG Require Import Spec.
Import ListNotations.

(** ** mex *)

Lemma mex_from_lt s v fuel u :
  v <= u < mex_from s v fuel -> In u s.
Proof.
  revert v; induction fuel as [|f IH]; simpl; intros v Hu; [lia|].
  revert Hu; destruct (existsb (Nat.eqb v) s) eqn:E; intros Hu; [|lia].
  destruct (Nat.eq_dec u v) as [->|Hne].
  - apply existsb_exists in E as [x [Hx Hxe]]. apply Nat.eqb_eq in Hxe; subst; auto.
  - apply (IH (S v)); lia.
Qed.

Lemma mex_lt s u : u < mex s -> In u s.
Proof. unfold mex; intros H; apply (mex_from_lt s 0 (length s)); lia. Qed.

Lemma mex_from_cases s v fuel :
  (~ In (mex_from s v fuel) s) \/ (mex_from s v fuel = v + fuel).
Proof.
  revert v; induction fuel as [|f IH]; simpl; intros v; [right; lia|].
  destruct (existsb (Nat.eqb v) s) eqn:E.
  - destruct (IH (S v)) as [H|H]; [left; auto|right; lia].
  - left; intros Hin. assert (existsb (Nat.eqb v) s = true) by
      (apply existsb_exists; exists v; split; auto; apply Nat.eqb_refl).
    congruence.
Qed.

Lemma mex_notin s : ~ In (mex s) s.
Proof.
  unfold mex; destruct (mex_from_cases s 0 (length s)) as [H|H]; auto.
  rewrite H; simpl; intros Hin.
  assert (Hi : incl (seq 0 (S (length s))) s).
  { intros u Hu; apply in_seq in Hu.
    destruct (Nat.eq_dec u (length s)) as [->|]; auto.
    apply mex_lt; unfold mex; rewrite H; simpl; lia. }
  apply NoDup_incl_length in Hi; [|apply seq_NoDup].
  rewrite seq_length in Hi; lia.
Qed.

(** mex only depends on which numbers are in the list, and it is
    characterised by: not in the list, everything below in the list. *)
Lemma mex_unique s g :
  ~ In g s -> (forall u, u < g -> In u s) -> mex s = g.
Proof.
  intros H1 H2.
  destruct (lt_eq_lt_dec (mex s) g) as [[H|H]|H]; auto.
  - exfalso; apply (mex_notin s), H2, H.
  - exfalso; apply H1, mex_lt, H.
Qed.

Lemma mex_ext s1 s2 :
  (forall v, In v s1 <-> In v s2) -> mex s1 = mex s2.
Proof.
  intros H; apply mex_unique.
  - intros Hin; apply H in Hin; apply (mex_notin s2 Hin).
  - intros u Hu; apply H, mex_lt, Hu.
Qed.

(** ** The heaps a move leaves are smaller *)

Lemma moves_lt r n o h : In o (moves r n) -> In h o -> h < n.
Proof.
  destruct r as [ds|s]; unfold moves.
  - intros Ho Hh. apply in_flat_map in Ho as [k [_ Ho]].
    unfold digit_moves in Ho.
    destruct (k <=? n) eqn:Hk; [apply Nat.leb_le in Hk|contradiction].
    repeat rewrite in_app_iff in Ho.
    destruct Ho as [Ho|[Ho|Ho]].
    + destruct (bit _ 0 && _ && _); simpl in Ho; [|contradiction].
      destruct Ho as [<-|[]]; destruct Hh.
    + destruct (bit _ 1 && (1 <=? k) && _) eqn:E; simpl in Ho; [|contradiction].
      apply andb_true_iff in E as [E E2]; apply andb_true_iff in E as [_ E1].
      apply Nat.leb_le in E1; apply Nat.leb_le in E2.
      destruct Ho as [<-|[]]; destruct Hh as [<-|[]]; lia.
    + destruct (bit _ 2); [|contradiction].
      apply in_map_iff in Ho as [a [<- Ha]]; apply in_seq in Ha.
      destruct Hh as [<-|[<-|[]]]; lia.
  - intros Ho Hh. apply in_map_iff in Ho as [k [<- Hk]].
    apply filter_In in Hk as [_ Hk].
    apply andb_true_iff in Hk as [H1 H2]; apply Nat.leb_le in H1, H2.
    destruct Hh as [<-|[]]; lia.
Qed.

Lemma value_ext f g o :
  (forall h, In h o -> f h = g h) -> value f o = value g o.
Proof.
  induction o as [|h o IH]; intros H; simpl; [reflexivity|].
  rewrite (H h (or_introl eq_refl)), IH; [reflexivity|].
  intros; apply H; right; auto.
Qed.

(** ** The mex equation *)

Lemma table_length r n : length (table r n) = n.
Proof.
  induction n; simpl; auto. rewrite app_length, IHn; simpl; lia.
Qed.

Lemma table_nth r n i : i < n -> nth i (table r n) 0 = G r i.
Proof.
  intros H; unfold G.
  induction n as [|n IH]; [lia|].
  destruct (Nat.eq_dec i n) as [->|Hne]; [reflexivity|].
  simpl; rewrite app_nth1 by (rewrite table_length; lia).
  apply IH; lia.
Qed.

Theorem G_mex r n : G r n = mex (map (value (G r)) (moves r n)).
Proof.
  unfold G at 1; simpl.
  rewrite app_nth2 by (rewrite table_length; lia).
  rewrite table_length, Nat.sub_diag; simpl.
  f_equal; apply map_ext_in; intros o Ho; apply value_ext.
  intros h Hh; apply table_nth, (moves_lt r n o h Ho Hh).
Qed.

(** ** A table that satisfies the mex equation up to B is G up to B *)

Theorem table_is_G r f B :
  (forall n, n <= B ->
     ~ In (f n) (map (value f) (moves r n)) /\
     (forall u, u < f n -> In u (map (value f) (moves r n)))) ->
  forall n, n <= B -> f n = G r n.
Proof.
  intros H n; induction n as [n IH] using lt_wf_ind; intros Hn.
  rewrite G_mex.
  assert (E : map (value f) (moves r n) = map (value (G r)) (moves r n)).
  { apply map_ext_in; intros o Ho; apply value_ext; intros h Hh.
    pose proof (moves_lt r n o h Ho Hh); apply IH; lia. }
  destruct (H n Hn) as [H1 H2]; rewrite E in H1, H2.
  symmetry; apply mex_unique; auto.
Qed.

(** Two rules whose moves have the same values (for every valuation of
    the heaps that gives the empty heap 0) have the same G. *)
Lemma G_zero r : G r 0 = 0.
Proof.
  rewrite G_mex. destruct r as [ds|s]; unfold moves.
  - rewrite flat_map_concat_map.
    replace (concat _) with (@nil (list nat)); [reflexivity|].
    induction (seq 0 (length ds)) as [|k l IHl]; simpl; auto.
    rewrite <- IHl.
    destruct (k <=? 0) eqn:Hk; [|unfold digit_moves; rewrite Hk; reflexivity].
    apply Nat.leb_le in Hk; replace k with 0 by lia.
    unfold digit_moves. destruct (bit (nth 0 ds 0) 0), (bit (nth 0 ds 0) 1),
      (bit (nth 0 ds 0) 2); reflexivity.
  - replace (filter _ s) with (@nil nat); [reflexivity|].
    induction s as [|k s IH]; [reflexivity|]. cbn [filter].
    destruct ((1 <=? k) && (k <=? 0)) eqn:E; [|exact IH].
    apply andb_true_iff in E as [E1 E2]; apply Nat.leb_le in E1, E2; lia.
Qed.

Theorem G_ext r1 r2 :
  (forall f n, f 0 = 0 -> forall v,
     In v (map (value f) (moves r1 n)) <-> In v (map (value f) (moves r2 n))) ->
  forall n, G r1 n = G r2 n.
Proof.
  intros H n; induction n as [n IH] using lt_wf_ind.
  rewrite (G_mex r1), (G_mex r2).
  rewrite (mex_ext _ _ (H (G r1) n (G_zero r1))).
  f_equal; apply map_ext_in; intros o Ho; apply value_ext; intros h Hh.
  apply IH, (moves_lt r2 n o h Ho Hh).
Qed.

(** ** The moves of a code, as a statement *)

Definition code_option (ds : list nat) (f : nat -> nat) (n v : nat) : Prop :=
  exists k, k < length ds /\ k <= n /\
    let d := nth k ds 0 in
    (bit d 0 = true /\ 1 <= k /\ n - k = 0 /\ v = 0) \/
    (bit d 1 = true /\ 1 <= k /\ 1 <= n - k /\ v = f (n - k)) \/
    (bit d 2 = true /\ exists a, 1 <= a < n - k /\ v = Nat.lxor (f a) (f (n - k - a))).

Lemma code_option_iff ds f n v :
  In v (map (value f) (moves (Code ds) n)) <-> code_option ds f n v.
Proof.
  unfold code_option, moves; rewrite in_map_iff; split.
  - intros [o [Hv Ho]]; apply in_flat_map in Ho as [k [Hk Ho]].
    apply in_seq in Hk. unfold digit_moves in Ho.
    destruct (k <=? n) eqn:Hkn; [apply Nat.leb_le in Hkn|contradiction].
    exists k; split; [lia|split; [lia|]].
    repeat rewrite in_app_iff in Ho. destruct Ho as [Ho|[Ho|Ho]].
    + destruct (bit _ 0 && _ && _) eqn:E; simpl in Ho; [|contradiction].
      destruct Ho as [<-|[]].
      repeat rewrite andb_true_iff in E; destruct E as [[E0 E1] E2].
      apply Nat.leb_le in E1; apply Nat.eqb_eq in E2. left; simpl in Hv; auto.
    + destruct (bit _ 1 && _ && _) eqn:E; simpl in Ho; [|contradiction].
      destruct Ho as [<-|[]].
      repeat rewrite andb_true_iff in E; destruct E as [[E0 E1] E2].
      apply Nat.leb_le in E1, E2. right; left; simpl in Hv.
      rewrite Nat.lxor_0_r in Hv; auto.
    + destruct (bit _ 2) eqn:E; [|contradiction].
      apply in_map_iff in Ho as [a [<- Ha]]; apply in_seq in Ha.
      right; right; split; auto; exists a; split; [lia|].
      simpl in Hv; rewrite Nat.lxor_0_r in Hv; auto.
  - intros [k [Hk [Hkn Hc]]].
    assert (Hm : forall o, In o (digit_moves k (nth k ds 0) n) -> value f o = v ->
              exists o, value f o = v /\ In o (flat_map (fun k => digit_moves k (nth k ds 0) n) (seq 0 (length ds)))).
    { intros o Ho Hv; exists o; split; auto; apply in_flat_map; exists k; split; auto.
      apply in_seq; lia. }
    unfold digit_moves in Hm. apply Nat.leb_le in Hkn; rewrite Hkn in Hm.
    destruct Hc as [[E0 [E1 [E2 ->]]]|[[E0 [E1 [E2 ->]]]|[E0 [a [Ha ->]]]]].
    + apply (Hm []); auto.
      rewrite E0; apply Nat.leb_le in E1; apply Nat.eqb_eq in E2; rewrite E1, E2; simpl; auto.
    + apply (Hm [n - k]).
      * rewrite E0; apply Nat.leb_le in E1, E2; rewrite E1, E2; simpl; auto with datatypes.
      * simpl; apply Nat.lxor_0_r.
    + apply (Hm [a; n - k - a]).
      * rewrite E0; repeat rewrite in_app_iff; right; right.
        apply in_map_iff; exists a; split; auto; apply in_seq; lia.
      * simpl; rewrite Nat.lxor_0_r; auto.
Qed.
