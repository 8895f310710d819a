import { Form, Select, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { OrderOptionNode } from '@shutu/contracts';
import { fetchAreaTree, fetchChannels, fetchProductTree, orderKeys } from './api.ts';
import { productLevels } from './form-values.ts';
import { om } from './messages.ts';

interface TreeNode {
  value: string;
  title: string;
  children?: TreeNode[];
}
const treeData = (nodes: readonly OrderOptionNode[] = []): TreeNode[] =>
  nodes.map((n) => ({ value: n.value, title: n.title, children: n.children && treeData(n.children) }));

/** The province names of the area tree (the rest of its values are areas). */
export function useProvinces(): Set<string> {
  const areas = useQuery({ queryKey: [...orderKeys.options, 'areas'], queryFn: fetchAreaTree, staleTime: 300_000 });
  return new Set((areas.data ?? []).map((p) => p.value));
}

/** Channels, belonging, the province/area tree and the product tree of the query form. */
export function FilterFields({ cancelling }: { cancelling: boolean }) {
  const channels = useQuery({ queryKey: [...orderKeys.options, 'channels'], queryFn: fetchChannels, staleTime: 300_000 });
  const areas = useQuery({ queryKey: [...orderKeys.options, 'areas'], queryFn: fetchAreaTree, staleTime: 300_000 });
  const products = useQuery({ queryKey: [...orderKeys.options, 'products'], queryFn: fetchProductTree, staleTime: 300_000 });
  const channelOptions = (channels.data?.channels ?? []).map((c) => ({ value: c.value, label: c.title }));
  return (
    <>
      <Form.Item name="channels" label={cancelling ? om.cancelChannel : om.orderChannel}>
        <Select mode="multiple" allowClear options={channelOptions} placeholder={om.required} maxTagCount="responsive" />
      </Form.Item>
      <Form.Item name="belongs" label={om.belongto}>
        <Select mode="multiple" allowClear options={(channels.data?.belongs ?? []).map((b) => ({ value: b, label: b }))} placeholder={om.required} />
      </Form.Item>
      <Form.Item name="areas" label={om.areas}>
        <TreeSelect
          treeData={treeData(areas.data)}
          treeCheckable
          showCheckedStrategy={TreeSelect.SHOW_PARENT}
          allowClear
          maxTagCount="responsive"
          placeholder={om.required}
        />
      </Form.Item>
      <Form.Item
        name="products"
        label={om.products}
        rules={[
          {
            validator: async (_, value: string[] | undefined) => {
              const { types, spids } = productLevels(value);
              if (types.length > 10 || spids.length > 10) throw new Error(om.tooManyProducts);
            },
          },
        ]}
      >
        <TreeSelect
          treeData={treeData(products.data)}
          treeCheckable
          showCheckedStrategy={TreeSelect.SHOW_PARENT}
          allowClear
          maxTagCount="responsive"
          placeholder={om.required}
        />
      </Form.Item>
    </>
  );
}
