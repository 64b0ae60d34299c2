import { Suspense } from 'react';
import { lazyWithAntd } from '@/components/lazy-with-antd';
import { useRegisterDialog } from '@/stores/register-dialog-store';

// The registration dialog's code loads when it is first opened.
const RegisterDialog = lazyWithAntd(() => import('@/features/register/components/register-dialog').then((m) => m.RegisterDialog));

/** Dialogs of the public layout that belong to features. */
export function PublicDialogs() {
  const { open, hide } = useRegisterDialog();
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <RegisterDialog open={open} onClose={hide} />
    </Suspense>
  );
}
